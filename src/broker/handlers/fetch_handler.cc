// SPDX-License-Identifier: Apache-2.0
//
// Fetch (key 1): v4.
// - v4: the first version with magic-2 batches, which are served exactly as stored, so no
//   down-conversion is ever needed (librdkafka needs v4 in range for message format v2).
// - Long polling: the answer waits until the partitions hold at least min_bytes of batches
//   from the fetch offsets, or max_wait_ms passes (capped at the broker's max_fetch_wait_ms);
//   Produce wakes waiting fetches. Errors (unknown partition, offset out of range) answer at
//   once. The wait suspends only this connection.
// - Limits: batches are whole; a partition gets batches while they fit partition_max_bytes and
//   the response's max_bytes, except that the first batch of the response is always included
//   so that a consumer can progress past a batch larger than its limits (KIP-74).
// - isolation_level is accepted but there are no transactions: last_stable_offset is the high
//   watermark and aborted_transactions is empty.
// - Not implemented: fetch sessions (v7+), follower fetching (replica_id is ignored).
#include <asio/steady_timer.hpp>
#include <asio/this_coro.hpp>
#include <chrono>
#include <string>

#include "broker/handlers/handlers.h"
#include "protocol/messages/fetch.h"

namespace kgroups::broker::handlers {
namespace {

using protocol::ErrorCode;

struct Collected {
  protocol::FetchResponse response;
  std::size_t record_bytes = 0;  // bytes of batches in the response
  bool has_error = false;        // some partition has an error: answer at once
};

Collected collect(Cluster& cluster, const protocol::FetchRequest& request) {
  Collected out;
  const std::size_t max_bytes = static_cast<std::size_t>(std::max(request.max_bytes, 0));
  out.response.responses.reserve(request.topics.size());
  for (const auto& topic_request : request.topics) {
    auto& topic_response = out.response.responses.emplace_back();
    topic_response.topic = std::string(topic_request.topic);
    topic_response.partitions.reserve(topic_request.partitions.size());
    for (const auto& partition_request : topic_request.partitions) {
      auto& partition = topic_response.partitions.emplace_back();
      partition.partition_index = partition_request.partition;
      partition.aborted_transactions.emplace();  // empty, not null
      const BatchLog* log =
          cluster.find_partition(topic_request.topic, partition_request.partition);
      if (log == nullptr) {
        partition.error_code = ErrorCode::kUnknownTopicOrPartition;
        partition.high_watermark = -1;
        out.has_error = true;
        continue;
      }
      partition.high_watermark = log->high_watermark();
      partition.last_stable_offset = log->high_watermark();
      partition.log_start_offset = log->log_start_offset();
      const std::int64_t offset = partition_request.fetch_offset;
      if (offset < log->log_start_offset() || offset > log->high_watermark()) {
        partition.error_code = ErrorCode::kOffsetOutOfRange;
        out.has_error = true;
        continue;
      }
      const std::size_t partition_max =
          static_cast<std::size_t>(std::max(partition_request.partition_max_bytes, 0));
      std::size_t partition_bytes = 0;
      for (const StoredBatch& batch : log->batches_from(offset)) {
        const bool fits = partition_bytes + batch.size_bytes <= partition_max &&
                          out.record_bytes + batch.size_bytes <= max_bytes;
        if (!fits && out.record_bytes != 0) break;
        partition.records.emplace_back(batch.bytes());
        partition_bytes += batch.size_bytes;
        out.record_bytes += batch.size_bytes;
        if (!fits) break;  // the oversized first batch of the response: nothing more
      }
    }
  }
  return out;
}

}  // namespace

asio::awaitable<Reply> handle_fetch(RequestContext& ctx) {
  const auto request = protocol::FetchRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");

  const std::int32_t wait_ms =
      std::clamp(request->max_wait_ms, 0, ctx.broker.config().max_fetch_wait_ms);
  const auto deadline = asio::steady_timer::clock_type::now() + std::chrono::milliseconds(wait_ms);
  const std::size_t min_bytes = static_cast<std::size_t>(std::max(request->min_bytes, 0));
  for (;;) {
    Collected collected = collect(ctx.broker.cluster(), *request);
    const bool ready = collected.has_error || collected.record_bytes >= min_bytes ||
                       asio::steady_timer::clock_type::now() >= deadline;
    if (ready) {
      collected.response.encode(ctx.response, ctx.version());
      co_return Reply::kSend;
    }
    co_await ctx.broker.append_notifier().wait_until(deadline);
    const asio::cancellation_state state = co_await asio::this_coro::cancellation_state;
    if (state.cancelled() != asio::cancellation_type::none) {
      co_return ctx.close_because("connection closing during a long-polling fetch");
    }
  }
}

}  // namespace kgroups::broker::handlers
