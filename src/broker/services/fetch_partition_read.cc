// SPDX-License-Identifier: Apache-2.0
#include "broker/services/fetch_partition_read.h"

#include <algorithm>

namespace kgroups::broker {

void read_fetch_partition(const BatchLog& log, const FetchPartitionParams& params,
                          IsolationLevel isolation, const FetchReadLimits& limits,
                          FetchReadTotals& totals, protocol::FetchResponse::Partition& out,
                          std::int64_t high_watermark_limit) {
  out.high_watermark = std::min(log.high_watermark(), high_watermark_limit);
  out.last_stable_offset = std::min(log.last_stable_offset(), out.high_watermark);
  out.log_start_offset = log.log_start_offset();
  const std::int64_t offset = params.fetch_offset;
  // Offsets up to the log end are in range (a consumer may be ahead of a new leader's high
  // watermark): it gets no records until the high watermark passes them.
  if (offset < log.log_start_offset() || offset > log.log_end_offset()) {
    out.error_code = protocol::ErrorCode::kOffsetOutOfRange;
    totals.has_error = true;
    return;
  }
  const bool committed_only = isolation == IsolationLevel::kReadCommitted;
  // The last stable offset is always a batch's base offset (or the high watermark), so no
  // batch straddles it.
  const std::int64_t readable_end = committed_only ? out.last_stable_offset : out.high_watermark;
  const auto partition_max = static_cast<std::size_t>(std::max(params.partition_max_bytes, 0));
  std::size_t partition_bytes = 0;
  std::int64_t sent_end = offset;  // one past the last offset sent
  for (const StoredBatch& batch : log.batches_from(offset)) {
    if (batch.base_offset >= readable_end) break;
    if (totals.record_bytes + batch.size_bytes > limits.memory_bytes) {
      totals.short_of_memory = true;
      break;
    }
    const bool fits = partition_bytes + batch.size_bytes <= partition_max &&
                      totals.record_bytes + batch.size_bytes <= limits.response_bytes;
    if (!fits && totals.record_bytes != 0) break;
    out.records.emplace_back(batch.bytes());
    partition_bytes += batch.size_bytes;
    totals.record_bytes += batch.size_bytes;
    sent_end = batch.last_offset + 1;
    if (!fits) break;  // the oversized first batch of the response: nothing more
  }
  if (!committed_only) return;
  auto& aborted = out.aborted_transactions.emplace();  // empty, not null
  const PartitionTransactions& transactions = log.transactions();
  if (transactions.empty()) return;
  transactions.for_each_aborted(offset, sent_end, [&aborted](const AbortedTransaction& entry) {
    aborted.push_back({.producer_id = entry.producer_id, .first_offset = entry.first_offset});
  });
}

}  // namespace kgroups::broker
