// SPDX-License-Identifier: Apache-2.0
#include "broker/services/fetch_service.h"

#include <limits>

#include <algorithm>
#include <asio/steady_timer.hpp>
#include <asio/this_coro.hpp>
#include <chrono>
#include <string>
#include <vector>

#include "broker/services/fetch_partition_read.h"
#include "protocol/record_batch.h"

namespace kgroups::broker {
namespace {

using protocol::ErrorCode;

constexpr std::int16_t kFirstTopicIdVersion = 13;

std::int64_t steady_now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// The request as the session cache sees it: partitions keyed by topic id (v13+) or name.
FetchSessionCache::Request session_request(const protocol::FetchRequest& request,
                                           bool uses_topic_ids) {
  FetchSessionCache::Request out;
  out.session_id = request.session_id;
  out.session_epoch = request.session_epoch;
  out.uses_topic_ids = uses_topic_ids;
  for (const auto& topic : request.topics) {
    for (const auto& partition : topic.partitions) {
      FetchSessionPartition named;
      if (uses_topic_ids) {
        named.key.topic_id = topic.topic_id;
      } else {
        named.key.topic = std::string(topic.topic);
      }
      named.key.partition = partition.partition;
      named.params = {.fetch_offset = partition.fetch_offset,
                      .partition_max_bytes = partition.partition_max_bytes,
                      .current_leader_epoch = partition.current_leader_epoch};
      out.partitions.push_back(std::move(named));
    }
  }
  for (const auto& topic : request.forgotten_topics_data) {
    for (const std::int32_t partition : topic.partitions) {
      FetchPartitionKey key;
      if (uses_topic_ids) {
        key.topic_id = topic.topic_id;
      } else {
        key.topic = std::string(topic.topic);
      }
      key.partition = partition;
      out.forgotten.push_back(std::move(key));
    }
  }
  return out;
}

// One partition of the fetch, resolved against the cluster.
struct FetchTarget {
  const FetchSessionPartition* partition;
  const BatchLog* log = nullptr;                                  // nullptr: missing_error
  std::string_view topic_name{};                                  // with a log: its topic's name
  ErrorCode missing_error = ErrorCode::kUnknownTopicOrPartition;  // UNKNOWN_TOPIC_ID by id
  // A stale leader (an isolated broker) serves only up to the high watermark it froze at.
  std::int64_t high_watermark_limit = std::numeric_limits<std::int64_t>::max();
};

// Whether broker `node` may answer `target`'s partition: the leader (or a stale leader) at
// the epoch the client knows. Otherwise the target answers NOT_LEADER_OR_FOLLOWER,
// FENCED_LEADER_EPOCH or UNKNOWN_LEADER_EPOCH.
void check_leadership(const ReplicationController& replication, std::int32_t node,
                      FetchTarget& target) {
  const ReplicationController::LeaderCheck check =
      replication.check_leader(*target.log, node, target.partition->params.current_leader_epoch);
  if (check.leadership == Leadership::kStaleLeader) {
    target.high_watermark_limit = target.log->replicas().stale_leader().high_watermark;
  }
  if (check.error != ErrorCode::kNone) {
    target.log = nullptr;
    target.missing_error = check.error;
  }
}

std::vector<FetchTarget> resolve(Cluster& cluster, const FetchSessionCache::Context& context,
                                 PartitionFaults* faults, const ReplicationController* replication,
                                 std::int32_t node, FetchTopicGate* gate) {
  std::vector<FetchTarget> targets;
  targets.reserve(context.partitions.size());
  for (const FetchSessionPartition& partition : context.partitions) {
    FetchTarget& target = targets.emplace_back(FetchTarget{.partition = &partition});
    const FetchPartitionKey& key = partition.key;
    // A topic the gate refuses, or an injected error (POST /v1/faults), answers instead of the
    // partition.
    const auto injected = [&](std::string_view topic_name) {
      if (gate != nullptr && !gate->may_read(topic_name)) {
        target.missing_error = ErrorCode::kTopicAuthorizationFailed;
        return true;
      }
      if (faults == nullptr) return false;
      const ErrorCode error = faults->error_for(topic_name, key.partition);
      if (error != ErrorCode::kNone) target.missing_error = error;
      return error != ErrorCode::kNone;
    };
    if (!context.uses_topic_ids) {
      if (!injected(key.topic)) target.log = cluster.find_partition(key.topic, key.partition);
      target.topic_name = key.topic;
      if (target.log != nullptr && replication != nullptr) {
        check_leadership(*replication, node, target);
      }
      continue;
    }
    const StoredTopic* topic = cluster.find_topic(key.topic_id);
    if (topic != nullptr && injected(topic->name)) continue;
    if (topic == nullptr) {
      target.missing_error = ErrorCode::kUnknownTopicId;
    } else if (key.partition >= 0 &&
               static_cast<std::size_t>(key.partition) < topic->partitions.size()) {
      target.log = &topic->partitions[static_cast<std::size_t>(key.partition)];
      target.topic_name = topic->name;
      if (replication != nullptr) check_leadership(*replication, node, target);
    }
  }
  return targets;
}

struct Collected {
  std::vector<protocol::FetchResponse::Partition> partitions;  // one per target
  FetchReadTotals totals;
};

Collected collect(const std::vector<FetchTarget>& targets, IsolationLevel isolation,
                  const FetchReadLimits& limits) {
  Collected out;
  out.partitions.resize(targets.size());
  for (std::size_t i = 0; i < targets.size(); ++i) {
    const FetchTarget& target = targets[i];
    protocol::FetchResponse::Partition& partition = out.partitions[i];
    partition.partition_index = target.partition->key.partition;
    if (target.log == nullptr) {
      partition.error_code = target.missing_error;
      partition.high_watermark = -1;
      out.totals.has_error = true;
      continue;
    }
    read_fetch_partition(*target.log, target.partition->params, isolation, limits, out.totals,
                         partition, target.high_watermark_limit);
  }
  return out;
}

// The answer: the partitions the session cache lists, grouped by topic as they come.
protocol::FetchResponse build_response(const FetchSessionCache::Context& context,
                                       const FetchSessionCache::Answer& answer,
                                       Collected& collected) {
  protocol::FetchResponse response;
  response.error_code = answer.error;
  response.session_id = answer.session_id;
  if (answer.error != ErrorCode::kNone) return response;
  for (std::size_t i = 0; i < context.partitions.size(); ++i) {
    if (!answer.include[i]) continue;
    const FetchPartitionKey& key = context.partitions[i].key;
    auto& topics = response.responses;
    if (topics.empty() || topics.back().topic != key.topic ||
        topics.back().topic_id != key.topic_id) {
      auto& topic = topics.emplace_back();
      topic.topic = key.topic;
      topic.topic_id = key.topic_id;
    }
    topics.back().partitions.push_back(std::move(collected.partitions[i]));
  }
  return response;
}

// Whether `request` comes from a consumer rather than a follower replica.
bool is_consumer_fetch(const protocol::FetchRequest& request, std::int16_t version) {
  constexpr std::int16_t kFirstReplicaStateVersion = 15;
  const std::int32_t replica_id =
      version >= kFirstReplicaStateVersion ? request.replica_state.replica_id : request.replica_id;
  return replica_id < 0;
}

// One past the last offset of the last batch in `records` (stored batches, so their headers
// parse); nullopt for no batch.
std::optional<std::int64_t> end_offset_of(const std::vector<protocol::ByteView>& records) {
  if (records.empty()) return std::nullopt;
  const auto header = protocol::parse_record_batch_header(records.back());
  if (!header) return std::nullopt;
  return header->base_offset + header->last_offset_delta + 1;
}

// The base offset of a stored batch (its header parses: the log wrote it).
std::int64_t base_offset_of(protocol::ByteView batch) {
  return protocol::parse_record_batch_header(batch)->base_offset;
}

// Pins the segments of every batch the answer carries.
void pin_answered(const std::vector<FetchTarget>& targets, const Collected& collected,
                  const FetchSessionCache::Answer& answer, SegmentPins& pins) {
  if (answer.error != ErrorCode::kNone) return;
  for (std::size_t i = 0; i < targets.size(); ++i) {
    const std::vector<protocol::ByteView>& records = collected.partitions[i].records;
    if (!answer.include[i] || records.empty() || targets[i].log == nullptr) continue;
    targets[i].log->pin_segments(base_offset_of(records.front()), base_offset_of(records.back()),
                                 pins);
  }
}

// Tells `observer` each partition of the answer that carries records.
void report_deliveries(FetchDeliveryObserver& observer, const FetchingClient& client,
                       const std::vector<FetchTarget>& targets, const Collected& collected,
                       const FetchSessionCache::Answer& answer) {
  if (answer.error != ErrorCode::kNone) return;
  for (std::size_t i = 0; i < targets.size(); ++i) {
    if (!answer.include[i]) continue;
    const std::optional<std::int64_t> end = end_offset_of(collected.partitions[i].records);
    const FetchSessionPartition& partition = *targets[i].partition;
    if (!end || *end <= partition.params.fetch_offset) continue;
    observer.on_records_delivered(client, targets[i].topic_name, partition.key.partition,
                                  partition.params.fetch_offset, *end);
  }
}

// The answer to a request that cannot be served as a whole (an isolation_level other than 0
// or 1): every partition named gets `error`, as does the top level (v7+); no session changes.
protocol::FetchResponse refusal(const protocol::FetchRequest& request, ErrorCode error) {
  protocol::FetchResponse response;
  response.error_code = error;
  for (const auto& topic : request.topics) {
    auto& answered = response.responses.emplace_back();
    answered.topic = std::string(topic.topic);
    answered.topic_id = topic.topic_id;
    for (const auto& partition : topic.partitions) {
      auto& refused = answered.partitions.emplace_back();
      refused.partition_index = partition.partition;
      refused.error_code = error;
      refused.high_watermark = -1;
    }
  }
  return response;
}

}  // namespace

FetchService::FetchService(const BrokerConfig& config, Cluster& cluster, AppendNotifier& notifier,
                           const ByteBudget& response_memory)
    : config_(config),
      cluster_(cluster),
      notifier_(notifier),
      response_memory_(response_memory),
      sessions_(static_cast<std::size_t>(config.max_fetch_sessions),
                static_cast<std::size_t>(config.max_partitions)) {}

asio::awaitable<std::optional<protocol::FetchResponse>> FetchService::fetch(
    const protocol::FetchRequest& request, std::int16_t version, PartitionFaults* faults,
    const FetchingClient* client, SegmentPins* pins, std::int32_t node, FetchTopicGate* gate) {
  const std::optional<IsolationLevel> isolation = isolation_level_from(request.isolation_level);
  if (!isolation) co_return refusal(request, ErrorCode::kInvalidRequest);
  const FetchSessionCache::Context context =
      sessions_.open(session_request(request, version >= kFirstTopicIdVersion), steady_now_ms());
  const std::int32_t wait_ms = std::clamp(request.max_wait_ms, 0, config_.max_fetch_wait_ms);
  const auto deadline = asio::steady_timer::clock_type::now() + std::chrono::milliseconds(wait_ms);
  const auto min_bytes = static_cast<std::size_t>(std::max(request.min_bytes, 0));
  const auto response_bytes =
      static_cast<std::size_t>(std::clamp(request.max_bytes, 0, config_.fetch_max_bytes));
  std::vector<const BatchLog*> logs;
  for (;;) {
    // Resolved again after every wait: a topic may have been deleted (or grown) meanwhile,
    // so no StoredTopic* or BatchLog* is kept across a co_await.
    const std::vector<FetchTarget> targets =
        resolve(cluster_, context, faults, replication_, node, gate);
    logs.clear();
    for (const FetchTarget& target : targets) {
      if (target.log != nullptr) logs.push_back(target.log);
    }
    const FetchReadLimits limits{
        .response_bytes = response_bytes,
        .memory_bytes = static_cast<std::size_t>(response_memory_.available())};
    Collected collected = collect(targets, *isolation, limits);
    const FetchReadTotals& totals = collected.totals;
    // Short of memory with nothing to send, answering at once would only make the client ask
    // again at once: wait for room (or data) instead.
    const bool enough =
        totals.record_bytes >= min_bytes && (totals.record_bytes > 0 || !totals.short_of_memory);
    const bool ready = context.kind == FetchSessionCache::Kind::kError || totals.has_error ||
                       enough || asio::steady_timer::clock_type::now() >= deadline;
    if (ready) {
      std::vector<FetchPartitionOutcome> outcomes;
      outcomes.reserve(collected.partitions.size());
      for (const auto& partition : collected.partitions) {
        outcomes.push_back({.high_watermark = partition.high_watermark,
                            .last_stable_offset = partition.last_stable_offset,
                            .log_start_offset = partition.log_start_offset,
                            .error = partition.error_code,
                            .has_records = !partition.records.empty()});
      }
      const FetchSessionCache::Answer answer = sessions_.answer(context, outcomes, steady_now_ms());
      if (delivery_observer_ != nullptr && client != nullptr &&
          is_consumer_fetch(request, version)) {
        report_deliveries(*delivery_observer_, *client, targets, collected, answer);
      }
      if (pins != nullptr) pin_answered(targets, collected, answer, *pins);
      co_return build_response(context, answer, collected);
    }
    co_await notifier_.wait_until(deadline, logs);
    const asio::cancellation_state state = co_await asio::this_coro::cancellation_state;
    if (state.cancelled() != asio::cancellation_type::none) co_return std::nullopt;
  }
}

}  // namespace kgroups::broker
