// SPDX-License-Identifier: Apache-2.0
//
// OffsetForLeaderEpoch (key 23): v0-4, for consumers that check for log truncation (KIP-320).
// - Each partition is answered from its leader-epoch cache (PartitionReplicas): the largest
//   epoch at or below the one asked for, and the offset the next epoch began at (the log end
//   offset for the current epoch), so a client that read records of an older leader detects
//   that an election truncated them. One broker that never elects: epoch 0 from offset 0,
//   ending at the log end. An epoch above the leader's, or a negative one, gives epoch -1 and
//   end offset -1. Only the partition's leader answers: other brokers
//   NOT_LEADER_OR_FOLLOWER (an isolated broker answers as the leader it believes it is).
// - v1: leader_epoch in the answer. v2: current_leader_epoch is checked: above the leader's
//   epoch gets UNKNOWN_LEADER_EPOCH, below it (other than -1, "not given")
//   FENCED_LEADER_EPOCH; throttle_time_ms (0). v3: replica_id (a follower's id; ignored). v4:
//   flexible.
// - UNKNOWN_TOPIC_OR_PARTITION for a partition that does not exist (no auto-creation). A
//   partition named more than once is answered once.
#include <string>
#include <unordered_set>

#include "broker/handlers/handlers.h"
#include "broker/storage/partition_key.h"
#include "protocol/messages/offset_for_leader_epoch.h"

namespace kgroups::broker::handlers {
namespace {

using protocol::ErrorCode;
using Response = protocol::OffsetForLeaderEpochResponse;
Response::Partition answer(Cluster& cluster, const ReplicationController& replication,
                           std::int32_t node, std::string_view topic,
                           const protocol::OffsetForLeaderEpochRequest::Partition& asked) {
  Response::Partition out{.partition = asked.partition};
  const BatchLog* log = cluster.find_partition(topic, asked.partition);
  if (log == nullptr) {
    out.error_code = ErrorCode::kUnknownTopicOrPartition;
    return out;
  }
  const ReplicationController::LeaderCheck leader =
      replication.check_leader(*log, node, asked.current_leader_epoch);
  const PartitionReplicas& replicas = log->replicas();
  if (leader.error != ErrorCode::kNone) {
    out.error_code = leader.error;
  } else if (asked.leader_epoch <= leader.epoch) {
    const std::int64_t end = leader.leadership == Leadership::kStaleLeader
                                 ? replicas.stale_leader().log_end_offset
                                 : log->log_end_offset();
    const auto [found_epoch, end_offset] = replicas.end_offset_for(asked.leader_epoch, end);
    out.leader_epoch = found_epoch;
    out.end_offset = end_offset;
  }
  return out;
}

}  // namespace

asio::awaitable<Reply> handle_offset_for_leader_epoch(RequestContext& ctx) {
  const auto request = protocol::OffsetForLeaderEpochRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");
  Cluster& cluster = ctx.broker.cluster();
  Response response;
  // Kafka: CLUSTER_ACTION on the cluster (a follower) allows every topic, else DESCRIBE on each
  // topic; a denied topic's partitions answer TOPIC_AUTHORIZATION_FAILED.
  const bool every_topic =
      !ctx.authorizing() || ctx.allowed_on_cluster(AclOperation::kClusterAction);
  std::unordered_set<PartitionKey, PartitionKeyHash> seen;
  for (const auto& topic : request->topics) {
    const bool denied =
        !every_topic && !ctx.allowed(AclOperation::kDescribe, AclResourceType::kTopic, topic.topic);
    Response::Topic* out = nullptr;
    for (const auto& partition : topic.partitions) {
      if (!seen.insert({topic.topic, partition.partition}).second) continue;
      if (out == nullptr) {
        out = &response.topics.emplace_back();
        out->topic = std::string(topic.topic);
      }
      if (denied) {
        out->partitions.push_back({.error_code = protocol::ErrorCode::kTopicAuthorizationFailed,
                                   .partition = partition.partition});
        ctx.count_error(protocol::ErrorCode::kTopicAuthorizationFailed);
        continue;
      }
      out->partitions.push_back(
          answer(cluster, ctx.broker.replication(), ctx.node_id, topic.topic, partition));
    }
  }
  response.encode(ctx.response, ctx.version());
  co_return Reply::kSend;
}

}  // namespace kgroups::broker::handlers
