// SPDX-License-Identifier: Apache-2.0
//
// Produce (key 0): v0-11.
// - v3-11: served. Each partition's records must be exactly one magic-2 batch, validated as
//   Kafka's LogValidator does before anything is stored (protocol/record_validator.h): sizes,
//   CRC-32C, codec, record count against the records actually there, every record's varints
//   and lengths, offset deltas, timestamps; compressed batches are decompressed for this (up to
//   --max-uncompressed-batch-bytes) but stored as sent. Control batches, transactional batches
//   and producer ids are refused (InitProducerId is not served, so no client asked for them).
//   Structural damage gets CORRUPT_MESSAGE, the rest INVALID_RECORD (INVALID_TIMESTAMP for a
//   client-set LogAppendTime); nothing of the partition is stored then. A stored batch gets the
//   broker's base offset and, if its header disagrees with its records, their max timestamp.
// - v4: same layout (Kafka: KAFKA_STORAGE_ERROR may be answered). v5: log_start_offset in the
//   answer. v6, v7: same layout (v7: zstd batches, accepted like the other codecs).
// - v8: error_message carries the validator's reason for a refused batch; record_errors stays
//   empty (a refused batch is refused whole, not record by record).
// - v9: flexible. v10: the tagged current_leader and node_endpoints are only sent with
//   NOT_LEADER_OR_FOLLOWER, which one broker never answers: never sent. v11: same layout.
// - v0-2: advertised only because librdkafka turns compression off unless Produce's range
//   includes v0 (Kafka 4.0 does the same, KAFKA-18659). Their v0/v1 message sets get
//   UNSUPPORTED_FOR_MESSAGE_FORMAT.
// - acks: 1 and -1 answer once the batches are stored (there is one replica, so the same
//   moment); 0 sends no response at all, and an error then closes the connection, as Kafka
//   does, since the client has no other way to learn of it. Other values: INVALID_REQUIRED_ACKS.
// - A partition named more than once is stored and answered once, with the records it was
//   named with last, in the order first named (Kafka keeps the partitions in a map).
// - Unknown topics are auto-created when the broker allows it (within --max-topics and
//   --max-partitions); else UNKNOWN_TOPIC_OR_PARTITION.
// - Records above --max-message-bytes: MESSAGE_TOO_LARGE. Null or empty records:
//   INVALID_RECORD. No room in the records' memory share even after evicting
//   the oldest segments: KAFKA_STORAGE_ERROR (retriable).
// - Not implemented: transactions and idempotence (InitProducerId is not served, so clients
//   send neither), log-append time (log_append_time_ms is -1).
#include <string>
#include <unordered_map>
#include <vector>

#include "broker/handlers/handlers.h"
#include "broker/handlers/partition_key.h"
#include "broker/logger.h"
#include "protocol/messages/produce.h"
#include "protocol/record_batch.h"
#include "protocol/record_validator.h"

namespace kgroups::broker::handlers {
namespace {

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

// Validates and stores one partition's records; returns the partition's response, and in
// `reason` why the records were refused when the validator says.
protocol::ProduceResponse::PartitionResponse produce_partition(RequestContext& ctx, Topic* topic,
                                                               const ProduceTarget& target,
                                                               ErrorCode topic_error,
                                                               std::string& reason) {
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
  if (data.records &&
      data.records->size() > static_cast<std::size_t>(ctx.broker.config().max_message_bytes)) {
    out.error_code = ErrorCode::kMessageTooLarge;
    return out;
  }
  protocol::RecordValidator& validator = ctx.broker.record_validator();
  const auto batch = validator.validate(data.records.value_or(protocol::ByteView{}));
  if (!batch) {
    out.error_code = batch.error();
    reason = validator.rejection_reason();
    return out;
  }
  const auto base_offset = ctx.broker.cluster().append(
      *topic, data.index, batch->bytes, batch->header.last_offset_delta, batch->max_timestamp);
  if (!base_offset) {
    out.error_code = base_offset.error();
    return out;
  }
  out.base_offset = *base_offset;
  out.log_start_offset = topic->partitions[static_cast<std::size_t>(data.index)].log_start_offset();
  if (log_enabled(LogLevel::kDebug)) {
    log_line(LogLevel::kDebug,
             std::string(ctx.peer) + " Produce " + quote(topic->name) + "[" +
                 std::to_string(data.index) + "]: " + std::to_string(batch->header.record_count) +
                 " records, " + std::string(compression_name(batch->header.compression())) +
                 ", base offset " + std::to_string(out.base_offset));
  }
  return out;
}

}  // namespace

asio::awaitable<Reply> handle_produce(RequestContext& ctx) {
  const auto request = protocol::ProduceRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");
  const bool valid_acks = request->acks == 0 || request->acks == 1 || request->acks == -1;

  Cluster& cluster = ctx.broker.cluster();
  protocol::ProduceResponse response;
  ErrorCode first_error = ErrorCode::kNone;
  std::string first_refusal;  // "topic[partition]: ERROR" of the first refused partition
  std::size_t refusals = 0;
  for (const ProduceTarget& target : distinct_targets(*request)) {
    ErrorCode topic_error = ErrorCode::kNone;
    Topic* topic = nullptr;
    if (!valid_acks) {
      topic_error = ErrorCode::kInvalidRequiredAcks;
    } else if (!Cluster::is_valid_topic_name(target.topic)) {
      topic_error = ErrorCode::kInvalidTopicException;
    } else if ((topic = cluster.find_or_create_topic(target.topic)) == nullptr) {
      topic_error = ErrorCode::kUnknownTopicOrPartition;
    }
    if (response.responses.empty() || response.responses.back().name != target.topic) {
      response.responses.emplace_back().name = std::string(target.topic);
    }
    std::string reason;
    auto partition_response = produce_partition(ctx, topic, target, topic_error, reason);
    if (!reason.empty()) partition_response.error_message = reason;
    if (partition_response.error_code == ErrorCode::kNone) {
      ctx.broker.append_notifier().notify(
          topic->partitions[static_cast<std::size_t>(partition_response.index)]);
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
    log_warn(std::string(ctx.peer) + " Produce refused " + std::to_string(refusals) +
             " partition(s), the first " + first_refusal);
  }
  if (request->acks == 0) {
    if (first_error != ErrorCode::kNone) {
      co_return ctx.close_because("acks=0 produce failed with " +
                                  std::string(protocol::error_name(first_error)) +
                                  " (closing tells the client)");
    }
    co_return Reply::kNoResponse;
  }
  response.encode(ctx.response, ctx.version());
  co_return Reply::kSend;
}

}  // namespace kgroups::broker::handlers
