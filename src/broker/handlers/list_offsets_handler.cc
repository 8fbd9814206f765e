// SPDX-License-Identifier: Apache-2.0
//
// ListOffsets (key 2): v1.
// - v1: per partition, timestamp -2 gives the earliest offset (the log start offset, which
//   retention moves), -1 the latest (the high watermark); both with timestamp -1.
// - Other timestamps give the first record whose timestamp is >= the one asked for, with that
//   timestamp, or offset -1 and timestamp -1 if there is none. The batch is found through the
//   log's segment maxima and a binary search (no scan of the log); an uncompressed batch is
//   then searched record by record; in a compressed batch the answer is the batch's base
//   offset and max timestamp, which may be a few records early (decompressing on every
//   lookup would let a small request cost as much CPU as the stored data).
// - A partition named more than once gets INVALID_REQUEST at each mention, as Kafka answers.
// - Not implemented: v0 (old_style_offsets), v2+ (isolation_level; there are no
//   transactions). Unknown topic or partition: UNKNOWN_TOPIC_OR_PARTITION.
#include <string>
#include <unordered_map>

#include "broker/handlers/handlers.h"
#include "broker/handlers/partition_key.h"
#include "protocol/messages/list_offsets.h"
#include "protocol/record_batch.h"
#include "protocol/record_validator.h"

namespace kgroups::broker::handlers {
namespace {

using protocol::ErrorCode;

// Fills `out.offset` and `out.timestamp` for the first record at or after `timestamp_ms`.
void find_by_timestamp(const BatchLog& log, std::int64_t timestamp_ms,
                       protocol::RecordValidator& records,
                       protocol::ListOffsetsResponse::Partition& out) {
  const StoredBatch* batch = log.first_batch_at_or_after(timestamp_ms);
  if (batch == nullptr) return;  // offset and timestamp stay -1
  out.offset = batch->base_offset;
  out.timestamp = batch->max_timestamp;
  const auto header = protocol::parse_record_batch_header(batch->bytes());
  if (!header || header->compression() != protocol::Compression::kNone) return;
  const auto record = records.find_record_at_or_after(batch->bytes(), timestamp_ms);
  if (record && *record) {
    out.offset = batch->base_offset + (*record)->offset_delta;
    out.timestamp = (*record)->timestamp;
  }
}

}  // namespace

asio::awaitable<Reply> handle_list_offsets(RequestContext& ctx) {
  const auto request = protocol::ListOffsetsRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");

  std::unordered_map<PartitionKey, int, PartitionKeyHash> mentions;
  for (const auto& topic_request : request->topics) {
    for (const auto& partition_request : topic_request.partitions) {
      ++mentions[PartitionKey{topic_request.name, partition_request.partition_index}];
    }
  }
  Cluster& cluster = ctx.broker.cluster();
  protocol::ListOffsetsResponse response;
  for (const auto& topic_request : request->topics) {
    auto& topic_response = response.topics.emplace_back();
    topic_response.name = std::string(topic_request.name);
    for (const auto& partition_request : topic_request.partitions) {
      auto& partition = topic_response.partitions.emplace_back();
      partition.partition_index = partition_request.partition_index;
      if (mentions[PartitionKey{topic_request.name, partition_request.partition_index}] > 1) {
        partition.error_code = ErrorCode::kInvalidRequest;
        continue;
      }
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
        find_by_timestamp(*log, partition_request.timestamp, ctx.broker.record_validator(),
                          partition);
      } else {
        partition.error_code = ErrorCode::kInvalidRequest;
      }
    }
  }
  response.encode(ctx.response, ctx.version());
  co_return Reply::kSend;
}

}  // namespace kgroups::broker::handlers
