// SPDX-License-Identifier: Apache-2.0
//
// ListOffsets (key 2): v1.
// - v1: per partition, timestamp -2 gives the earliest offset (0: nothing is ever deleted),
//   -1 the latest (the high watermark); both with timestamp -1.
// - Other timestamps give the first record whose timestamp is >= the one asked for, with that
//   timestamp, or offset -1 and timestamp -1 if there is none. Uncompressed batches are
//   searched record by record; in a compressed batch (never decompressed) the answer is the
//   batch's base offset and max timestamp, which may be a few records early.
// - Not implemented: v0 (old_style_offsets), v2+ (isolation_level; there are no
//   transactions). Unknown topic or partition: UNKNOWN_TOPIC_OR_PARTITION.
#include <string>

#include "broker/handlers/handlers.h"
#include "protocol/batch_records.h"
#include "protocol/messages/list_offsets.h"
#include "protocol/record_batch.h"

namespace kgroups::broker::handlers {
namespace {

using protocol::ErrorCode;

// Fills `out.offset` and `out.timestamp` for the first record at or after `timestamp_ms`.
void find_by_timestamp(const BatchLog& log, std::int64_t timestamp_ms,
                       protocol::ListOffsetsResponse::Partition& out) {
  const StoredBatch* batch = log.first_batch_at_or_after(timestamp_ms);
  if (batch == nullptr) return;  // offset and timestamp stay -1
  out.offset = batch->base_offset;
  out.timestamp = batch->max_timestamp;
  const auto header = protocol::parse_record_batch_header(batch->bytes());
  if (!header || header->compression() != protocol::Compression::kNone) return;
  const auto records = protocol::decode_batch_records(batch->bytes());
  if (!records) return;
  for (const protocol::BatchRecord& record : *records) {
    const std::int64_t record_timestamp = header->base_timestamp + record.timestamp_delta;
    if (record_timestamp >= timestamp_ms) {
      out.offset = batch->base_offset + record.offset_delta;
      out.timestamp = record_timestamp;
      return;
    }
  }
}

}  // namespace

asio::awaitable<Reply> handle_list_offsets(RequestContext& ctx) {
  const auto request = protocol::ListOffsetsRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");

  Cluster& cluster = ctx.broker.cluster();
  protocol::ListOffsetsResponse response;
  for (const auto& topic_request : request->topics) {
    auto& topic_response = response.topics.emplace_back();
    topic_response.name = std::string(topic_request.name);
    for (const auto& partition_request : topic_request.partitions) {
      auto& partition = topic_response.partitions.emplace_back();
      partition.partition_index = partition_request.partition_index;
      const BatchLog* log =
          cluster.find_partition(topic_request.name, partition_request.partition_index);
      if (log == nullptr) {
        partition.error_code = ErrorCode::kUnknownTopicOrPartition;
        continue;
      }
      if (partition_request.timestamp == protocol::kListOffsetsEarliestTimestamp) {
        partition.offset = log->log_start_offset();
      } else if (partition_request.timestamp == protocol::kListOffsetsLatestTimestamp) {
        partition.offset = log->high_watermark();
      } else if (partition_request.timestamp >= 0) {
        find_by_timestamp(*log, partition_request.timestamp, partition);
      } else {
        partition.error_code = ErrorCode::kInvalidRequest;
      }
    }
  }
  response.encode(ctx.response, ctx.version());
  co_return Reply::kSend;
}

}  // namespace kgroups::broker::handlers
