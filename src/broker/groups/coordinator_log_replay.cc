// SPDX-License-Identifier: Apache-2.0
#include "broker/groups/coordinator_log_replay.h"

#include "protocol/record_batch.h"

namespace kgroups::broker {

CoordinatorLogReplay replay_coordinator_log(
    const BatchLog& log, const std::function<bool(const protocol::BatchRecord&)>& apply) {
  CoordinatorLogReplay result;
  for (const StoredBatch& batch : log.batches_from(log.log_start_offset())) {
    const auto header = protocol::parse_record_batch_header(batch.bytes());
    if (!header || header->is_control()) {
      if (!header) ++result.skipped;
      continue;
    }
    const auto records = protocol::decode_batch_records(batch.bytes());
    if (!records) {
      ++result.skipped;
      continue;
    }
    for (const protocol::BatchRecord& record : *records) {
      if (batch.base_offset + record.offset_delta < log.log_start_offset()) continue;
      if (apply(record)) {
        ++result.records;
      } else {
        ++result.skipped;
      }
    }
  }
  return result;
}

}  // namespace kgroups::broker
