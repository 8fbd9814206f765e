// SPDX-License-Identifier: Apache-2.0
//
// OffsetCommit (key 8): v2-9.
// - v2: generation_id and member_id fence the commit as Kafka does (UNKNOWN_MEMBER_ID,
//   ILLEGAL_GENERATION, REBALANCE_IN_PROGRESS), so a member that lost a partition in a
//   rebalance cannot overwrite the new owner's commit; generation -1 with an empty member id
//   commits for a group without members. The group's error is given for every partition.
// - v3: throttle_time_ms (0). v5: no retention_time_ms. v6: committed_leader_epoch (kept,
//   and written to __consumer_offsets). v7: group_instance_id: a replaced static member gets
//   FENCED_INSTANCE_ID. v8: flexible. v9: for a consumer-group protocol (KIP-848) group the
//   generation field is the member epoch (STALE_MEMBER_EPOCH when it is not the member's current
//   one). Kafka answers such a group's commits below v9 with UNSUPPORTED_VERSION; so does kgroupsd.
// - A partition the broker does not have gets UNKNOWN_TOPIC_OR_PARTITION and is not stored;
//   one whose metadata is longer than --offset-metadata-max-bytes gets
//   OFFSET_METADATA_TOO_LARGE and is not stored, while the others are.
// - Injected errors (POST /v1/faults): a coordinator fault gives every partition its error; an
//   OffsetCommit fault the partitions it matches. Those partitions are not committed.
// - retention_time_ms is ignored: committed offsets live as long as the broker.
// - Not served: v0-1 (ZooKeeper-era and commit_timestamp).
#include <string>
#include <utility>
#include <vector>

#include "broker/handlers/authorization_error.h"
#include "broker/handlers/coordinator_check.h"
#include "broker/handlers/group_error_code.h"
#include "broker/handlers/group_refusal_log.h"
#include "broker/handlers/handlers.h"
#include "protocol/messages/offset_commit.h"

namespace kgroups::broker::handlers {

asio::awaitable<Reply> handle_offset_commit(RequestContext& ctx) {
  const auto request = protocol::OffsetCommitRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");
  OffsetCommitParams params;
  params.group_id = std::string(request->group_id);
  params.generation_id = ctx.version() >= 1 ? request->generation_id : -1;
  params.member_id = std::string(request->member_id);
  if (request->group_instance_id)
    params.group_instance_id = std::string(*request->group_instance_id);
  // Injected errors (POST /v1/faults): a coordinator fault refuses the whole commit; an
  // OffsetCommit fault the partitions it matches, which are then not committed.
  FaultInjector& injected = ctx.broker.faults();
  // Kafka: READ on the group (else GROUP_AUTHORIZATION_FAILED for every partition), then READ
  // on each topic (else TOPIC_AUTHORIZATION_FAILED for its partitions), before the coordinator.
  protocol::ErrorCode coordinator_error =
      group_authorization_error(ctx, AclOperation::kRead, request->group_id);
  if (coordinator_error == protocol::ErrorCode::kNone) {
    coordinator_error = coordinator_placement_error(ctx, request->group_id);
  }
  std::vector<bool> topic_denied;  // by the request's topic index; empty: every topic allowed
  if (ctx.authorizing()) {
    for (const auto& topic : request->topics) {
      topic_denied.push_back(
          !ctx.allowed(AclOperation::kRead, AclResourceType::kTopic, topic.name));
    }
  }
  const auto denied = [&](std::size_t topic_index) {
    return topic_index < topic_denied.size() && topic_denied[topic_index];
  };
  if (coordinator_error == protocol::ErrorCode::kNone) {
    coordinator_error =
        injected.take_coordinator_error(protocol::ApiKey::kOffsetCommit, request->group_id);
  }
  PartitionFaults faults;
  if (coordinator_error == protocol::ErrorCode::kNone) {
    faults = injected.partition_faults(protocol::ApiKey::kOffsetCommit, request->group_id);
  }
  const auto injected_error = [&](std::string_view topic, std::int32_t partition) {
    return coordinator_error != protocol::ErrorCode::kNone ? coordinator_error
                                                           : faults.error_for(topic, partition);
  };
  for (std::size_t t = 0; t < request->topics.size(); ++t) {
    const auto& topic = request->topics[t];
    if (denied(t)) continue;
    for (const auto& partition : topic.partitions) {
      if (ctx.broker.cluster().find_partition(topic.name, partition.partition_index) == nullptr ||
          injected_error(topic.name, partition.partition_index) != protocol::ErrorCode::kNone) {
        continue;
      }
      params.offsets.push_back(
          PartitionOffset{{std::string(topic.name), partition.partition_index},
                          {.offset = partition.committed_offset,
                           .metadata = std::string(partition.committed_metadata.value_or("")),
                           .leader_epoch = partition.committed_leader_epoch}});
    }
  }
  CoordinatorService& groups = ctx.broker.groups();
  OffsetCommitResult result;
  if (coordinator_error != protocol::ErrorCode::kNone) {
    // The coordinator is "away": not asked.
  } else if (ctx.version() < 9 && groups.consumer().has_group(params.group_id)) {
    result.error = GroupError::kUnsupportedVersion;
  } else {
    result = groups.commit_offsets(params);
  }
  log_group_refusal(ctx.peer, "OffsetCommit", request->group_id, result.error);
  for (const GroupError error : result.partition_errors) {
    if (error == GroupError::kOffsetMetadataTooLarge) {
      log_group_refusal(ctx.peer, "OffsetCommit", request->group_id, error);
      break;
    }
  }

  // The coordinator's outcomes are in the order of params.offsets: the known partitions.
  std::size_t next_outcome = 0;
  protocol::OffsetCommitResponse response;
  for (std::size_t t = 0; t < request->topics.size(); ++t) {
    const auto& topic = request->topics[t];
    auto& topic_response = response.topics.emplace_back();
    topic_response.name = std::string(topic.name);
    for (const auto& partition : topic.partitions) {
      const bool known =
          ctx.broker.cluster().find_partition(topic.name, partition.partition_index) != nullptr;
      protocol::ErrorCode error = injected_error(topic.name, partition.partition_index);
      if (error == protocol::ErrorCode::kNone && denied(t)) {
        error = protocol::ErrorCode::kTopicAuthorizationFailed;
      }
      if (error != protocol::ErrorCode::kNone) {
        // answered with the injected error, not committed
      } else if (!known) {
        error = protocol::ErrorCode::kUnknownTopicOrPartition;
      } else {
        error = to_error_code(next_outcome < result.partition_errors.size()
                                  ? result.partition_errors[next_outcome]
                                  : result.error);
        ++next_outcome;
      }
      topic_response.partitions.push_back(
          {.partition_index = partition.partition_index, .error_code = error});
    }
  }
  faults.settle();
  for (const auto& topic : response.topics) {
    for (const auto& partition : topic.partitions) ctx.count_error(partition.error_code);
  }
  response.encode(ctx.response, ctx.version());
  co_return Reply::kSend;
}

}  // namespace kgroups::broker::handlers
