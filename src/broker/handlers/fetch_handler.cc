// SPDX-License-Identifier: Apache-2.0
//
// Fetch (key 1): v4.
// - v4: the first version with magic-2 batches, which are served exactly as stored, so no
//   down-conversion is ever needed (librdkafka needs v4 in range for message format v2).
// - Long polling: the answer waits until the partitions hold at least min_bytes of batches
//   from the fetch offsets, or max_wait_ms passes (capped at --max-fetch-wait-ms); a Produce
//   wakes only the fetches waiting on a partition it appended to. Errors (unknown partition,
//   offset out of range, e.g. below a log start offset that retention moved) answer at once.
//   The wait suspends only this connection.
// - A partition named more than once is answered once, with the parameters it was named with
//   last, in the order first named (Kafka keeps the partitions in a map).
// - Limits: batches are whole; a partition gets batches while they fit partition_max_bytes and
//   the response's max_bytes (at most --fetch-max-bytes), except that the first batch of the
//   response is always included so that a consumer can progress past a batch larger than its
//   limits (KIP-74). Record bytes also never exceed the room left in the broker's share for
//   unsent responses (--max-unsent-bytes): short of room, the fetch waits for it until its
//   deadline, then answers with what fits.
// - isolation_level is accepted but there are no transactions: last_stable_offset is the high
//   watermark and aborted_transactions is empty.
// - Not implemented: fetch sessions (v7+), follower fetching (replica_id is ignored).
#include <asio/steady_timer.hpp>
#include <asio/this_coro.hpp>
#include <chrono>
#include <string>
#include <unordered_map>
#include <vector>

#include "broker/handlers/handlers.h"
#include "broker/handlers/partition_key.h"
#include "protocol/messages/fetch.h"

namespace kgroups::broker::handlers {
namespace {

using protocol::ErrorCode;

// One distinct partition of the request.
struct FetchTarget {
  std::string_view topic;
  protocol::FetchRequest::Partition request;  // the parameters it was named with last
  const BatchLog* log = nullptr;              // nullptr: no such partition
};

std::vector<FetchTarget> distinct_targets(Cluster& cluster, const protocol::FetchRequest& request) {
  std::vector<FetchTarget> targets;
  std::unordered_map<PartitionKey, std::size_t, PartitionKeyHash> position;
  for (const auto& topic : request.topics) {
    for (const auto& partition : topic.partitions) {
      const auto [found, inserted] =
          position.try_emplace(PartitionKey{topic.topic, partition.partition}, targets.size());
      if (!inserted) {
        targets[found->second].request = partition;
        continue;
      }
      targets.push_back(FetchTarget{topic.topic, partition,
                                    cluster.find_partition(topic.topic, partition.partition)});
    }
  }
  return targets;
}

struct ByteLimits {
  std::size_t response_bytes;  // the request's max_bytes, at most --fetch-max-bytes
  std::size_t memory_bytes;    // room left for unsent responses
};

struct Collected {
  protocol::FetchResponse response;
  std::size_t record_bytes = 0;  // bytes of batches in the response
  bool has_error = false;        // some partition has an error: answer at once
  bool short_of_memory = false;  // a batch was left out only for lack of memory
};

void collect_partition(const FetchTarget& target, const ByteLimits& limits, Collected& out,
                       protocol::FetchResponse::Partition& partition) {
  partition.partition_index = target.request.partition;
  partition.aborted_transactions.emplace();  // empty, not null
  if (target.log == nullptr) {
    partition.error_code = ErrorCode::kUnknownTopicOrPartition;
    partition.high_watermark = -1;
    out.has_error = true;
    return;
  }
  const BatchLog& log = *target.log;
  partition.high_watermark = log.high_watermark();
  partition.last_stable_offset = log.high_watermark();
  partition.log_start_offset = log.log_start_offset();
  const std::int64_t offset = target.request.fetch_offset;
  if (offset < log.log_start_offset() || offset > log.high_watermark()) {
    partition.error_code = ErrorCode::kOffsetOutOfRange;
    out.has_error = true;
    return;
  }
  const auto partition_max =
      static_cast<std::size_t>(std::max(target.request.partition_max_bytes, 0));
  std::size_t partition_bytes = 0;
  for (const StoredBatch& batch : log.batches_from(offset)) {
    if (out.record_bytes + batch.size_bytes > limits.memory_bytes) {
      out.short_of_memory = true;
      break;
    }
    const bool fits = partition_bytes + batch.size_bytes <= partition_max &&
                      out.record_bytes + batch.size_bytes <= limits.response_bytes;
    if (!fits && out.record_bytes != 0) break;
    partition.records.emplace_back(batch.bytes());
    partition_bytes += batch.size_bytes;
    out.record_bytes += batch.size_bytes;
    if (!fits) break;  // the oversized first batch of the response: nothing more
  }
}

Collected collect(const std::vector<FetchTarget>& targets, const ByteLimits& limits) {
  Collected out;
  for (const FetchTarget& target : targets) {
    auto& topics = out.response.responses;
    if (topics.empty() || topics.back().topic != target.topic) {
      topics.emplace_back().topic = std::string(target.topic);
    }
    collect_partition(target, limits, out, topics.back().partitions.emplace_back());
  }
  return out;
}

}  // namespace

asio::awaitable<Reply> handle_fetch(RequestContext& ctx) {
  const auto request = protocol::FetchRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");

  const BrokerConfig& config = ctx.broker.config();
  const std::vector<FetchTarget> targets = distinct_targets(ctx.broker.cluster(), *request);
  std::vector<const BatchLog*> logs;
  for (const FetchTarget& target : targets) {
    if (target.log != nullptr) logs.push_back(target.log);
  }
  const std::int32_t wait_ms = std::clamp(request->max_wait_ms, 0, config.max_fetch_wait_ms);
  const auto deadline = asio::steady_timer::clock_type::now() + std::chrono::milliseconds(wait_ms);
  const auto min_bytes = static_cast<std::size_t>(std::max(request->min_bytes, 0));
  const auto response_bytes =
      static_cast<std::size_t>(std::clamp(request->max_bytes, 0, config.fetch_max_bytes));
  for (;;) {
    const ByteLimits limits{
        .response_bytes = response_bytes,
        .memory_bytes = static_cast<std::size_t>(ctx.broker.response_memory().available())};
    Collected collected = collect(targets, limits);
    // Short of memory with nothing to send, answering at once would only make the client ask
    // again at once: wait for room (or data) instead.
    const bool enough = collected.record_bytes >= min_bytes &&
                        (collected.record_bytes > 0 || !collected.short_of_memory);
    const bool ready =
        collected.has_error || enough || asio::steady_timer::clock_type::now() >= deadline;
    if (ready) {
      collected.response.encode(ctx.response, ctx.version());
      co_return Reply::kSend;
    }
    co_await ctx.broker.append_notifier().wait_until(deadline, logs);
    const asio::cancellation_state state = co_await asio::this_coro::cancellation_state;
    if (state.cancelled() != asio::cancellation_type::none) {
      co_return ctx.close_because("connection closing during a long-polling fetch");
    }
  }
}

}  // namespace kgroups::broker::handlers
