// SPDX-License-Identifier: Apache-2.0
//
// Produce (key 0): v0-3.
// - v3: served. Each partition's records must be magic-2 batches; every batch is checked
//   (sizes, CRC-32C, record count) before any is stored, then stored as sent with the broker's
//   base offset written in. Compressed batches are stored as they are, never decompressed.
// - v0-2: advertised only because librdkafka turns compression off unless Produce's range
//   includes v0 (Kafka 4.0 does the same, KAFKA-18659). Their v0/v1 message sets get
//   UNSUPPORTED_FOR_MESSAGE_FORMAT.
// - acks: 1 and -1 answer once the batches are stored (there is one replica, so the same
//   moment); 0 sends no response at all, and an error then closes the connection, as Kafka
//   does, since the client has no other way to learn of it. Other values: INVALID_REQUIRED_ACKS.
// - Unknown topics are auto-created when the broker allows it; else UNKNOWN_TOPIC_OR_PARTITION.
// - A batch above --max-message-bytes: MESSAGE_TOO_LARGE. Bad CRC: CORRUPT_MESSAGE. Null or
//   empty records: INVALID_RECORD.
// - Not implemented: transactions and idempotence (InitProducerId is not served, so clients
//   send neither), log-append time (log_append_time_ms is -1).
#include <string>

#include "broker/handlers/handlers.h"
#include "broker/logger.h"
#include "protocol/messages/produce.h"
#include "protocol/record_batch.h"

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

// Validates and stores one partition's records; returns the partition's response.
protocol::ProduceResponse::PartitionResponse produce_partition(
    RequestContext& ctx, std::string_view topic_name, Topic* topic,
    const protocol::ProduceRequest::PartitionData& data, ErrorCode topic_error) {
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
  if (!data.records || data.records->empty()) {
    out.error_code = ErrorCode::kInvalidRecord;
    return out;
  }
  auto batches = protocol::split_record_batches(*data.records);
  if (!batches) {
    out.error_code = batches.error();
    return out;
  }
  const auto max_bytes = static_cast<std::size_t>(ctx.broker.config().max_message_bytes);
  for (const protocol::RecordBatchView& batch : *batches) {
    if (batch.bytes.size() > max_bytes) {
      out.error_code = ErrorCode::kMessageTooLarge;
      return out;
    }
  }
  BatchLog& log = topic->partitions[static_cast<std::size_t>(data.index)];
  std::int32_t records = 0;
  for (const protocol::RecordBatchView& batch : *batches) {
    const std::int64_t base_offset =
        log.append(batch.bytes, batch.header.last_offset_delta, batch.header.max_timestamp);
    if (out.base_offset < 0) out.base_offset = base_offset;
    records += batch.header.record_count;
  }
  if (log_enabled(LogLevel::kDebug)) {
    log_line(LogLevel::kDebug,
             std::string(ctx.peer) + " Produce " + std::string(topic_name) + "[" +
                 std::to_string(data.index) + "]: " + std::to_string(records) + " records in " +
                 std::to_string(batches->size()) + " batch(es), " +
                 std::string(compression_name(batches->front().header.compression())) +
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
  response.responses.reserve(request->topic_data.size());
  bool appended = false;
  ErrorCode first_error = ErrorCode::kNone;
  for (const auto& topic_data : request->topic_data) {
    ErrorCode topic_error = ErrorCode::kNone;
    Topic* topic = nullptr;
    if (!valid_acks) {
      topic_error = ErrorCode::kInvalidRequiredAcks;
    } else if (!Cluster::is_valid_topic_name(topic_data.name)) {
      topic_error = ErrorCode::kInvalidTopicException;
    } else if ((topic = cluster.find_or_create_topic(topic_data.name)) == nullptr) {
      topic_error = ErrorCode::kUnknownTopicOrPartition;
    }
    auto& topic_response = response.responses.emplace_back();
    topic_response.name = std::string(topic_data.name);
    topic_response.partition_responses.reserve(topic_data.partition_data.size());
    for (const auto& partition_data : topic_data.partition_data) {
      auto partition_response =
          produce_partition(ctx, topic_data.name, topic, partition_data, topic_error);
      if (partition_response.error_code == ErrorCode::kNone) {
        appended = true;
      } else {
        if (first_error == ErrorCode::kNone) first_error = partition_response.error_code;
        log_warn(std::string(ctx.peer) + " Produce " + std::string(topic_data.name) + "[" +
                 std::to_string(partition_data.index) +
                 "] refused: " + std::string(protocol::error_name(partition_response.error_code)));
      }
      topic_response.partition_responses.push_back(std::move(partition_response));
    }
  }
  if (appended) ctx.broker.append_notifier().notify_all();

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
