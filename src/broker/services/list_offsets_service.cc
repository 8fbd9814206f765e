// SPDX-License-Identifier: Apache-2.0
#include "broker/services/list_offsets_service.h"

#include <algorithm>
#include <optional>
#include <string>
#include <unordered_map>

#include "broker/storage/isolation_level.h"
#include "broker/storage/partition_key.h"
#include "protocol/record_batch.h"

namespace kgroups::broker {
namespace {

using handlers::PartitionKey;
using handlers::PartitionKeyHash;

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
  // DeleteRecords may have moved the log start inside the batch: nothing below it is served.
  out.offset = std::max(out.offset, log.log_start_offset());
}

}  // namespace

protocol::ListOffsetsResponse list_offsets(Cluster& cluster, protocol::RecordValidator& records,
                                           const protocol::ListOffsetsRequest& request,
                                           const ReplicationController& replication,
                                           std::int32_t node) {
  std::unordered_map<PartitionKey, int, PartitionKeyHash> mentions;
  for (const auto& topic_request : request.topics) {
    for (const auto& partition_request : topic_request.partitions) {
      ++mentions[PartitionKey{topic_request.name, partition_request.partition_index}];
    }
  }
  // Before v2 the field is absent and reads 0: read uncommitted, as Kafka takes it.
  const std::optional<IsolationLevel> isolation = isolation_level_from(request.isolation_level);
  const bool committed_only = isolation == IsolationLevel::kReadCommitted;
  protocol::ListOffsetsResponse response;
  for (const auto& topic_request : request.topics) {
    auto& topic_response = response.topics.emplace_back();
    topic_response.name = std::string(topic_request.name);
    for (const auto& partition_request : topic_request.partitions) {
      auto& partition = topic_response.partitions.emplace_back();
      partition.partition_index = partition_request.partition_index;
      if (!isolation ||
          mentions[PartitionKey{topic_request.name, partition_request.partition_index}] > 1) {
        partition.error_code = ErrorCode::kInvalidRequest;
        continue;
      }
      const BatchLog* log =
          cluster.find_partition(topic_request.name, partition_request.partition_index);
      if (log == nullptr) {
        partition.error_code = ErrorCode::kUnknownTopicOrPartition;
        continue;
      }
      const ReplicationController::LeaderCheck leader =
          replication.check_leader(*log, node, partition_request.current_leader_epoch);
      if (leader.error != ErrorCode::kNone) {
        partition.error_code = leader.error;
        continue;
      }
      const std::int32_t epoch = leader.epoch;
      const std::int64_t timestamp = partition_request.timestamp;
      if (timestamp == protocol::kListOffsetsEarliestTimestamp ||
          timestamp == protocol::kListOffsetsEarliestLocalTimestamp) {
        partition.offset = log->log_start_offset();
      } else if (timestamp == protocol::kListOffsetsLatestTimestamp) {
        partition.offset = committed_only ? log->last_stable_offset() : log->high_watermark();
      } else if (timestamp == protocol::kListOffsetsLatestTieredTimestamp) {
        // Nothing is tiered: offset and timestamp stay -1.
      } else if (timestamp == protocol::kListOffsetsMaxTimestamp) {
        const std::int64_t newest = log->max_record_timestamp();
        if (newest >= 0) find_by_timestamp(*log, newest, records, partition);
      } else if (timestamp >= 0) {
        find_by_timestamp(*log, timestamp, records, partition);
      } else {
        partition.error_code = ErrorCode::kInvalidRequest;
        continue;
      }
      if (timestamp >= 0 || timestamp == protocol::kListOffsetsMaxTimestamp) {
        // A record read_committed cannot read yet is not an answer (Kafka: none is found).
        const std::int64_t readable_end =
            committed_only ? log->last_stable_offset() : log->high_watermark();
        if (partition.offset >= readable_end) partition.offset = partition.timestamp = -1;
      }
      if (partition.offset >= 0) partition.leader_epoch = epoch;
    }
  }
  return response;
}

}  // namespace kgroups::broker
