// SPDX-License-Identifier: Apache-2.0
//
// ListOffsets (key 2): v1-10.
// - v1: per partition, timestamp -2 gives the earliest offset (the log start offset, which
//   retention moves), -1 the latest (the high watermark); both with timestamp -1.
// - Other timestamps give the first record whose timestamp is >= the one asked for, with that
//   timestamp, or offset -1 and timestamp -1 if there is none. The batch is found through the
//   log's segment maxima and a binary search (no scan of the log); an uncompressed batch is
//   then searched record by record; in a compressed batch the answer is the batch's base
//   offset and max timestamp, which may be a few records early (decompressing on every
//   lookup would let a small request cost as much CPU as the stored data).
// - v2: isolation_level; read committed gives the same offsets (no transactions: the last
//   stable offset is the high watermark). throttle_time_ms is 0.
// - v3: same layout. v4: current_leader_epoch is accepted and not checked; the answer's
//   leader_epoch is 0 for a found offset (Metadata's leader epoch: one broker, no elections),
//   -1 when none is found. v5: same layout.
// - v6: flexible. v7: -3, the record with the newest timestamp (the first such, found as a
//   timestamp lookup of that timestamp), or offset -1 in an empty log.
// - v8: -4, the earliest local offset: the log start offset (there is no tiered storage).
// - v9: -5, the last tiered offset: offset -1 and timestamp -1 (nothing is tiered), as
//   Kafka answers for topics without remote storage.
// - v10: timeout_ms is accepted; nothing is remote, so every answer is immediate.
// - A partition named more than once gets INVALID_REQUEST at each mention, as Kafka answers.
// - Unknown topic or partition: UNKNOWN_TOPIC_OR_PARTITION. Other negative timestamps:
//   INVALID_REQUEST.
// - Not implemented: v0 (old_style_offsets).
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
      const std::int64_t timestamp = partition_request.timestamp;
      if (timestamp == protocol::kListOffsetsEarliestTimestamp ||
          timestamp == protocol::kListOffsetsEarliestLocalTimestamp) {
        partition.offset = log->log_start_offset();
      } else if (timestamp == protocol::kListOffsetsLatestTimestamp) {
        partition.offset = log->high_watermark();
      } else if (timestamp == protocol::kListOffsetsLatestTieredTimestamp) {
        // Nothing is tiered: offset and timestamp stay -1.
      } else if (timestamp == protocol::kListOffsetsMaxTimestamp) {
        const std::int64_t newest = log->max_record_timestamp();
        if (newest >= 0) find_by_timestamp(*log, newest, ctx.broker.record_validator(), partition);
      } else if (timestamp >= 0) {
        find_by_timestamp(*log, timestamp, ctx.broker.record_validator(), partition);
      } else {
        partition.error_code = ErrorCode::kInvalidRequest;
        continue;
      }
      if (partition.offset >= 0) partition.leader_epoch = 0;
    }
  }
  response.encode(ctx.response, ctx.version());
  co_return Reply::kSend;
}

}  // namespace kgroups::broker::handlers
