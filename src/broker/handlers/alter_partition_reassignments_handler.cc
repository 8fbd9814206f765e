// SPDX-License-Identifier: Apache-2.0
//
// AlterPartitionReassignments (key 45): v0-1, flexible. Admin clients (kafka-reassign-partitions,
// AdminClient's alterPartitionReassignments, kafkajs' alterPartitionReassignments) move
// partitions to other brokers; any broker answers, as a KRaft broker forwards it to the
// controller.
// - replicas: the target replicas, the first the preferred leader. The move runs as Kafka's
//   (ReplicationController::reassign()): the replica set is the union, the added replicas
//   catch up and join the ISR (at the controller's next tick, every 20 ms, when their broker
//   runs without a replication delay), then the leaving replicas go, and a leaving leader is
//   replaced by a target at a new epoch. The answer comes once the move has started;
//   ListPartitionReassignments and Metadata show its progress. Targets that are the replicas
//   already, in another order, take effect at once. A new target replaces the move in
//   progress.
// - null replicas: cancels the move in progress, the original replicas come back;
//   NO_REASSIGNMENT_IN_PROGRESS when none runs.
// - v1 (KIP-860): allow_replication_factor_change (default true). False: a target list whose
//   length differs from the replication factor (a move in progress: its target's) gets
//   INVALID_REPLICATION_FACTOR with a message, after the checks below; cancels are unaffected.
//   The response echoes the flag.
// - Per partition: UNKNOWN_TOPIC_OR_PARTITION; INVALID_REPLICA_ASSIGNMENT for an empty target
//   list, an unknown broker id, a broker named twice, or a cancel that only an unclean
//   election could complete. Each error has a message; a refused partition is unchanged.
// The work is per partition named (the frame bounds them), each target list at most the
// brokers long. timeout_ms is not needed.
#include <string>

#include "broker/handlers/authorization_error.h"
#include "broker/handlers/handlers.h"
#include "protocol/messages/alter_partition_reassignments.h"

namespace kgroups::broker::handlers {

asio::awaitable<Reply> handle_alter_partition_reassignments(RequestContext& ctx) {
  const auto request =
      protocol::AlterPartitionReassignmentsRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");
  Cluster& cluster = ctx.broker.cluster();
  ReplicationController& replication = ctx.broker.replication();
  protocol::AlterPartitionReassignmentsResponse response;
  response.allow_replication_factor_change = request->allow_replication_factor_change;
  // Kafka: ALTER on the cluster, else CLUSTER_AUTHORIZATION_FAILED at the top and for every
  // partition named; nothing moved.
  const protocol::ErrorCode denied = cluster_authorization_error(ctx, AclOperation::kAlter);
  if (denied != protocol::ErrorCode::kNone) {
    response.error_code = denied;
    response.error_message = std::string(authorization_message(denied));
    ctx.count_error(denied);
    for (const auto& request_topic : request->topics) {
      auto& out_topic = response.responses.emplace_back();
      out_topic.name = std::string(request_topic.name);
      for (const auto& request_partition : request_topic.partitions) {
        out_topic.partitions.push_back({.partition_index = request_partition.partition_index,
                                        .error_code = denied,
                                        .error_message = response.error_message});
      }
    }
    response.encode(ctx.response, ctx.version());
    co_return Reply::kSend;
  }
  const ReplicationFactorChange factor = request->allow_replication_factor_change
                                             ? ReplicationFactorChange::kAllowed
                                             : ReplicationFactorChange::kRefused;
  for (const auto& request_topic : request->topics) {
    auto& out_topic = response.responses.emplace_back();
    out_topic.name = std::string(request_topic.name);
    StoredTopic* topic = cluster.find_topic(request_topic.name);
    for (const auto& request_partition : request_topic.partitions) {
      auto& out = out_topic.partitions.emplace_back();
      out.partition_index = request_partition.partition_index;
      std::string reason;
      if (topic == nullptr || request_partition.partition_index < 0 ||
          std::cmp_greater_equal(request_partition.partition_index, topic->partitions.size())) {
        out.error_code = protocol::ErrorCode::kUnknownTopicOrPartition;
        reason = "there is no partition " + out_topic.name + "-" +
                 std::to_string(request_partition.partition_index) +
                 ": check the topic name and its partition count";
      } else if (request_partition.replicas.has_value()) {
        out.error_code = replication.reassign(*topic, request_partition.partition_index,
                                              *request_partition.replicas, reason, factor);
      } else {
        out.error_code =
            replication.cancel_reassignment(*topic, request_partition.partition_index, reason);
      }
      if (out.error_code != protocol::ErrorCode::kNone) {
        out.error_message = std::move(reason);
        ctx.count_error(out.error_code);
      }
    }
  }
  response.encode(ctx.response, ctx.version());
  co_return Reply::kSend;
}

}  // namespace kgroups::broker::handlers
