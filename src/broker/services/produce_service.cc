// SPDX-License-Identifier: Apache-2.0
#include "broker/services/produce_service.h"

#include <chrono>
#include <limits>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "broker/groups/coordinator_topic.h"
#include "broker/runtime/logger.h"
#include "broker/storage/partition_key.h"
#include "protocol/record_batch.h"

namespace kgroups::broker {
namespace {

using handlers::PartitionKey;
using handlers::PartitionKeyHash;

using protocol::ErrorCode;

std::string_view compression_name(protocol::Compression compression) {
  switch (compression) {
    case protocol::Compression::kNone:
      return "uncompressed";
    case protocol::Compression::kGzip:
      return "gzip";
    case protocol::Compression::kSnappy:
      return "snappy";
    case protocol::Compression::kLz4:
      return "lz4";
    case protocol::Compression::kZstd:
      return "zstd";
  }
  return "unknown compression";
}

// One distinct partition of the request.
struct ProduceTarget {
  std::string_view topic;
  const protocol::ProduceRequest::PartitionData* data;  // the records it was named with last
};

std::vector<ProduceTarget> distinct_targets(const protocol::ProduceRequest& request) {
  std::vector<ProduceTarget> targets;
  std::unordered_map<PartitionKey, std::size_t, PartitionKeyHash> position;
  for (const auto& topic : request.topic_data) {
    for (const auto& partition : topic.partition_data) {
      const auto [found, inserted] =
          position.try_emplace(PartitionKey{topic.name, partition.index}, targets.size());
      if (inserted) {
        targets.push_back(ProduceTarget{topic.name, &partition});
      } else {
        targets[found->second].data = &partition;
      }
    }
  }
  return targets;
}

// Why a CreateTime batch's timestamps lie outside the topic's
// message.timestamp.before.max.ms / after.max.ms of the broker's clock, or nullptr. The clock
// is read only when a topic sets either bound.
const char* timestamp_refusal(const TopicConfig& config, const protocol::ValidatedBatch& batch) {
  constexpr std::int64_t kUnbounded = std::numeric_limits<std::int64_t>::max();
  if (config.message_timestamp_type != TimestampType::kCreateTime ||
      (config.message_timestamp_before_max_ms == kUnbounded &&
       config.message_timestamp_after_max_ms == kUnbounded)) {
    return nullptr;
  }
  const std::int64_t now = std::chrono::duration_cast<std::chrono::milliseconds>(
                               std::chrono::system_clock::now().time_since_epoch())
                               .count();
  if (batch.min_timestamp >= 0 && batch.min_timestamp < now &&
      now - batch.min_timestamp > config.message_timestamp_before_max_ms) {
    return "a record timestamp is older than message.timestamp.before.max.ms allows";
  }
  if (batch.max_timestamp > now &&
      batch.max_timestamp - now > config.message_timestamp_after_max_ms) {
    return "a record timestamp is further ahead than message.timestamp.after.max.ms allows";
  }
  return nullptr;
}

// Validates and stores one partition's records; returns the partition's response, and in
// `reason` why the records were refused when the validator says.
// Where a partition's write goes with several brokers: who leads it as the receiving broker
// sees it, and what an acks=all write then waits for.
struct ReplicaGate {
  ReplicationController* replication = nullptr;  // nullptr: one broker
  std::int32_t node = 0;
  std::int16_t acks = 1;
  std::optional<AwaitedReplication> awaited;  // set for an acks=all write stored
};

protocol::ProduceResponse::PartitionResponse produce_partition(
    Cluster& cluster, protocol::RecordValidator& validator, ProducerWrites& writes,
    std::string_view peer, StoredTopic* topic, const ProduceTarget& target, ErrorCode topic_error,
    std::string& reason, ReplicaGate& gate) {
  const auto& data = *target.data;
  protocol::ProduceResponse::PartitionResponse out;
  out.index = data.index;
  if (topic_error != ErrorCode::kNone) {
    out.error_code = topic_error;
    return out;
  }
  if (data.index < 0 || static_cast<std::size_t>(data.index) >= topic->partitions.size()) {
    out.error_code = ErrorCode::kUnknownTopicOrPartition;
    return out;
  }
  BatchLog& log = topic->partitions[static_cast<std::size_t>(data.index)];
  const Leadership leadership = gate.replication == nullptr
                                    ? Leadership::kLeader
                                    : gate.replication->leadership(log, gate.node);
  if (leadership == Leadership::kNotLeader) {
    out.error_code = ErrorCode::kNotLeaderForPartition;
    return out;
  }
  // Kafka checks the ISR before appending an acks=all write (the stale leader's view of its
  // ISR is the one it had).
  const std::size_t isr_size = leadership == Leadership::kStaleLeader
                                   ? log.replicas().stale_leader().isr_size
                                   : log.replicas().isr_size();
  if (gate.acks == -1 && std::cmp_less(isr_size, topic->config.min_insync_replicas)) {
    out.error_code = ErrorCode::kNotEnoughReplicas;
    reason = "the partition has " + std::to_string(isr_size) +
             " in-sync replica(s), fewer than min.insync.replicas " +
             std::to_string(topic->config.min_insync_replicas);
    return out;
  }
  // max.message.bytes: the topic's, which defaults to the broker's --max-message-bytes.
  if (data.records &&
      data.records->size() > static_cast<std::size_t>(topic->config.max_message_bytes)) {
    out.error_code = ErrorCode::kMessageTooLarge;
    return out;
  }
  // Kafka refuses records without a key in a compacted topic (INVALID_RECORD).
  const auto batch = validator.validate(data.records.value_or(protocol::ByteView{}),
                                        topic->config.cleanup_compact);
  if (!batch) {
    out.error_code = batch.error();
    reason = validator.rejection_reason();
    return out;
  }
  if (const char* refusal = timestamp_refusal(topic->config, *batch)) {
    out.error_code = ErrorCode::kInvalidTimestamp;
    reason = refusal;
    return out;
  }
  if (leadership == Leadership::kStaleLeader) {
    // A fenced leader acknowledges alone: no replica ever holds these records.
    out.base_offset = gate.replication->stale_append(log, batch->header.record_count);
    if (gate.acks == -1) {
      gate.awaited = AwaitedReplication{.topic_index = 0,
                                        .partition_index = 0,
                                        .topic = {},
                                        .partition = data.index,
                                        .end_offset = out.base_offset + batch->header.record_count,
                                        .leader_epoch = log.replicas().stale_leader().epoch,
                                        .stale_leader = true,
                                        .min_insync_replicas = 1};
    }
    return out;
  }
  if (batch->header.producer_id >= 0) {
    const ErrorCode error = writes.store(*topic, data.index, *batch, out.base_offset, reason);
    if (error != ErrorCode::kNone) {
      out.error_code = error;
      return out;
    }
  } else {
    const auto base_offset = cluster.append(*topic, data.index, batch->bytes,
                                            batch->header.last_offset_delta, batch->max_timestamp);
    if (!base_offset) {
      out.error_code = base_offset.error();
      return out;
    }
    out.base_offset = *base_offset;
  }
  if (topic->config.message_timestamp_type == TimestampType::kLogAppendTime) {
    // The broker's clock, which the stored batch now carries (ProduceResponse v2+).
    out.log_append_time_ms = topic->partitions[static_cast<std::size_t>(data.index)]
                                 .batches_from(out.base_offset)
                                 .front()
                                 .max_timestamp;
  }
  out.log_start_offset = topic->partitions[static_cast<std::size_t>(data.index)].log_start_offset();
  if (gate.acks == -1 && gate.replication != nullptr) {
    gate.awaited =
        AwaitedReplication{.topic_index = 0,
                           .partition_index = 0,
                           .topic = {},
                           .partition = data.index,
                           .end_offset = out.base_offset + batch->header.last_offset_delta + 1,
                           .leader_epoch = log.replicas().leader_epoch(),
                           .stale_leader = false,
                           .min_insync_replicas = topic->config.min_insync_replicas};
  }
  if (log_enabled(LogLevel::kDebug)) {
    log_line(LogLevel::kDebug,
             std::string(peer) + " Produce " + quote(topic->name) + "[" +
                 std::to_string(data.index) + "]: " + std::to_string(batch->header.record_count) +
                 " records, " + std::string(compression_name(batch->header.compression())) +
                 ", base offset " + std::to_string(out.base_offset));
  }
  return out;
}

}  // namespace

ProduceService::ProduceService(const BrokerConfig& config, Cluster& cluster,
                               protocol::RecordValidator& validator, ProducerWrites& writes,
                               AppendNotifier& notifier)
    : config_(config),
      cluster_(cluster),
      validator_(validator),
      writes_(writes),
      notifier_(notifier) {}

ProduceOutcome ProduceService::produce(const protocol::ProduceRequest& request,
                                       std::string_view peer, PartitionFaults* faults,
                                       std::int32_t node) {
  const bool valid_acks = request.acks == 0 || request.acks == 1 || request.acks == -1;
  ProduceOutcome outcome;
  protocol::ProduceResponse& response = outcome.response;
  ErrorCode& first_error = outcome.first_error;
  std::string first_refusal;  // "topic[partition]: ERROR" of the first refused partition
  std::size_t refusals = 0;
  for (const ProduceTarget& target : distinct_targets(request)) {
    ErrorCode topic_error = ErrorCode::kNone;
    StoredTopic* topic = nullptr;
    if (faults != nullptr &&
        (topic_error = faults->error_for(target.topic, target.data->index)) != ErrorCode::kNone) {
      // An injected error (POST /v1/faults): answered, not stored.
    } else if (!valid_acks) {
      topic_error = ErrorCode::kInvalidRequiredAcks;
    } else if (!Cluster::is_valid_topic_name(target.topic) || target.topic == kOffsetsTopicName ||
               target.topic == kTransactionStateTopicName) {
      // Kafka refuses clients' appends to its internal topics the same way.
      topic_error = ErrorCode::kInvalidTopicException;
    } else if ((topic = cluster_.find_or_create_topic(target.topic)) == nullptr) {
      topic_error = ErrorCode::kUnknownTopicOrPartition;
    } else if (topic->internal) {
      topic_error = ErrorCode::kInvalidTopicException;
      topic = nullptr;
    }
    if (response.responses.empty() || response.responses.back().name != target.topic) {
      response.responses.emplace_back().name = std::string(target.topic);
    }
    std::string reason;
    ReplicaGate gate{
        .replication = replication_, .node = node, .acks = request.acks, .awaited = std::nullopt};
    auto partition_response = produce_partition(cluster_, validator_, writes_, peer, topic, target,
                                                topic_error, reason, gate);
    if (gate.awaited) {
      gate.awaited->topic = target.topic;
      gate.awaited->topic_index = response.responses.size() - 1;
      gate.awaited->partition_index = response.responses.back().partition_responses.size();
      outcome.awaited.push_back(*gate.awaited);
    }
    if (!reason.empty()) partition_response.error_message = reason;
    if (partition_response.error_code == ErrorCode::kNone) {
      notifier_.notify(topic->partitions[static_cast<std::size_t>(partition_response.index)]);
    } else {
      if (refusals++ == 0) {
        first_error = partition_response.error_code;
        first_refusal = quote(target.topic) + "[" + std::to_string(partition_response.index) +
                        "]: " + std::string(protocol::error_name(first_error));
        if (!reason.empty()) first_refusal += " (" + reason + ")";
      }
    }
    response.responses.back().partition_responses.push_back(std::move(partition_response));
  }

  if (refusals > 0) {
    log_warn(std::string(peer) + " Produce refused " + std::to_string(refusals) +
             " partition(s), the first " + first_refusal);
  }
  return outcome;
}

namespace {

// Whether the broker that appended `awaited` no longer leads at its epoch, so the write is not
// acknowledged (the producer retries it at the leader): the leader changed before every
// in-sync replica had the write (the new leader may lack it), or a fenced leader that took it
// alone rejoined as a follower (no replica holds it).
bool leadership_lost(const AwaitedReplication& awaited, const BatchLog& log) {
  if (!awaited.stale_leader) return log.replicas().leader_epoch() != awaited.leader_epoch;
  const StaleLeadership& stale = log.replicas().stale_leader();
  return stale.node < 0 || stale.epoch != awaited.leader_epoch;
}

}  // namespace

bool ProduceService::settle_replication(ProduceOutcome& outcome, bool timed_out) {
  std::erase_if(outcome.awaited, [&](const AwaitedReplication& awaited) {
    auto& answer = outcome.response.responses[awaited.topic_index]
                       .partition_responses[awaited.partition_index];
    const BatchLog* log = cluster_.find_partition(awaited.topic, awaited.partition);
    ErrorCode error = ErrorCode::kNone;
    if (log == nullptr) {
      error = ErrorCode::kUnknownTopicOrPartition;
    } else if (leadership_lost(awaited, *log)) {
      error = ErrorCode::kNotLeaderForPartition;
    } else if (!awaited.stale_leader && log->high_watermark() >= awaited.end_offset) {
      if (std::cmp_less(log->replicas().isr_size(), awaited.min_insync_replicas)) {
        error = ErrorCode::kNotEnoughReplicasAfterAppend;
      }
    } else if (timed_out) {
      error = ErrorCode::kRequestTimedOut;
    } else {
      return false;
    }
    answer.error_code = error;
    if (error != ErrorCode::kNone) answer.base_offset = -1;
    return true;
  });
  return outcome.awaited.empty();
}

}  // namespace kgroups::broker
