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
// - v2: isolation_level. With read committed (1), -1 gives the last stable offset (the first
//   offset of the oldest open transaction, else the high watermark), and a timestamp lookup
//   (also -3) whose record lies at or after it gives offset -1 and timestamp -1, as Kafka
//   answers; -2 and -4 do not depend on it. Another isolation_level gets INVALID_REQUEST for
//   every partition. throttle_time_ms is 0.
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
// - Injected errors (POST /v1/faults): a partition an armed ListOffsets fault matches answers
//   its error with offset and timestamp -1.
// - Not implemented: v0 (old_style_offsets).
#include "broker/handlers/handlers.h"
#include "broker/handlers/take_denied.h"
#include "broker/services/list_offsets_service.h"
#include "protocol/messages/list_offsets.h"

namespace kgroups::broker::handlers {

asio::awaitable<Reply> handle_list_offsets(RequestContext& ctx) {
  auto request = protocol::ListOffsetsRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");
  // Kafka: DESCRIBE on each topic, else TOPIC_AUTHORIZATION_FAILED for its partitions.
  const auto denied = take_denied_topics(ctx, request->topics, AclOperation::kDescribe);
  protocol::ListOffsetsResponse response =
      list_offsets(ctx.broker.cluster(), ctx.broker.record_validator(), *request,
                   ctx.broker.replication(), ctx.node_id);
  for (const auto& topic : denied) {
    auto& answered = response.topics.emplace_back();
    answered.name = std::string(topic.name);
    for (const auto& partition : topic.partitions) {
      answered.partitions.push_back({.partition_index = partition.partition_index,
                                     .error_code = protocol::ErrorCode::kTopicAuthorizationFailed});
      ctx.count_error(protocol::ErrorCode::kTopicAuthorizationFailed);
    }
  }
  PartitionFaults faults = ctx.broker.faults().partition_faults(protocol::ApiKey::kListOffsets);
  if (faults.active()) {
    for (auto& topic : response.topics) {
      for (auto& partition : topic.partitions) {
        const protocol::ErrorCode error = faults.error_for(topic.name, partition.partition_index);
        if (error == protocol::ErrorCode::kNone) continue;
        partition.error_code = error;
        partition.timestamp = -1;
        partition.offset = -1;
        partition.leader_epoch = -1;
      }
    }
    faults.settle();
  }
  response.encode(ctx.response, ctx.version());
  co_return Reply::kSend;
}

}  // namespace kgroups::broker::handlers
