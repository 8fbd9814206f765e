// SPDX-License-Identifier: Apache-2.0
//
// ShareGroupDescribe (key 77, KIP-932): v1, flexible.
// - Each named share group: state ("Empty" or "Stable"), group and assignment epochs, the
//   assignor ("simple"), and every member with its subscription and assignment (topics by id
//   and name). A group the broker does not hold, or one of another type, gets
//   GROUP_ID_NOT_FOUND.
// - A group named more than once is described once.
// - authorized_operations when asked for (authorized_operations.h). Authorization, as Kafka:
//   DESCRIBE on each group (else GROUP_AUTHORIZATION_FAILED); a group whose assignments name a
//   topic the client may not DESCRIBE answers TOPIC_AUTHORIZATION_FAILED without members.
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "broker/handlers/authorization_error.h"
#include "broker/handlers/authorized_operations.h"
#include "broker/handlers/described_group_topics.h"
#include "broker/handlers/group_error_code.h"
#include "broker/handlers/handlers.h"
#include "protocol/messages/share_group_describe.h"

namespace kgroups::broker::handlers {
namespace {

using Response = protocol::ShareGroupDescribeResponse;

Response::Assignment to_assignment(const std::vector<TopicPartitions>& topics,
                                   const Cluster& cluster) {
  Response::Assignment assignment;
  for (const TopicPartitions& topic : topics) {
    const StoredTopic* stored = cluster.find_topic(topic.topic_id);
    assignment.topic_partitions.push_back(
        {.topic_id = topic.topic_id,
         .topic_name = stored != nullptr ? stored->name : std::string(),
         .partitions = topic.partitions});
  }
  return assignment;
}

}  // namespace

asio::awaitable<Reply> handle_share_group_describe(RequestContext& ctx) {
  const auto request = protocol::ShareGroupDescribeRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");
  CoordinatorService& groups = ctx.broker.groups();
  Response response;
  std::unordered_set<std::string_view> seen;
  for (const std::string_view group_id : request->group_ids) {
    if (!seen.insert(group_id).second) continue;
    // Kafka: DESCRIBE on the group, else GROUP_AUTHORIZATION_FAILED.
    if (const protocol::ErrorCode denied =
            group_authorization_error(ctx, AclOperation::kDescribe, group_id);
        denied != protocol::ErrorCode::kNone) {
      auto& group = response.groups.emplace_back();
      group.group_id = std::string(group_id);
      group.error_code = denied;
      group.error_message = std::string(authorization_message(denied));
      ctx.count_error(denied);
      continue;
    }
    ShareGroupDescription description = groups.describe_share_group(group_id);
    auto& group = response.groups.emplace_back();
    group.group_id = std::string(group_id);
    group.error_code = to_error_code(description.error);
    if (description.error != GroupError::kNone) {
      group.error_message = "Group " + std::string(group_id) + " is not a share group.";
      group.group_state = "Dead";
      continue;
    }
    group.group_state = std::move(description.state);
    group.group_epoch = description.group_epoch;
    group.assignment_epoch = description.assignment_epoch;
    group.assignor_name = "simple";
    for (ShareGroupMemberDescription& member : description.members) {
      auto& described = group.members.emplace_back();
      described.member_id = std::move(member.member_id);
      described.rack_id = std::move(member.rack_id);
      described.member_epoch = member.member_epoch;
      described.client_id = std::move(member.client_id);
      described.client_host = std::move(member.client_host);
      described.subscribed_topic_names = std::move(member.subscribed_topic_names);
      described.assignment = to_assignment(member.assignment, ctx.broker.cluster());
    }
    if (request->include_authorized_operations) {
      group.authorized_operations = authorized_operations(ctx, AclResourceType::kGroup, group_id);
    }
    hide_if_undescribable(ctx, group);
  }
  response.encode(ctx.response, ctx.version());
  co_return Reply::kSend;
}

}  // namespace kgroups::broker::handlers
