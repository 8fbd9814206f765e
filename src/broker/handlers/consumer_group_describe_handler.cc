// SPDX-License-Identifier: Apache-2.0
//
// ConsumerGroupDescribe (key 69, KIP-848): v0, flexible.
// - Each named group of the consumer-group protocol: state ("Empty", "Assigning",
//   "Reconciling", "Stable"), group and assignment epochs, the server-side assignor, and
//   every member with its subscription, current and target assignments (topics by id and
//   name). A group the broker does not hold, or a classic group, gets GROUP_ID_NOT_FOUND.
// - A group named more than once is described once, so the response grows with the groups
//   that exist, not with the request's repetitions.
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
#include "protocol/messages/consumer_group_describe.h"

namespace kgroups::broker::handlers {
namespace {

using Response = protocol::ConsumerGroupDescribeResponse;

Response::Assignment to_assignment(std::vector<NamedTopicPartitions>& topics) {
  Response::Assignment assignment;
  assignment.topic_partitions.reserve(topics.size());
  for (NamedTopicPartitions& topic : topics) {
    assignment.topic_partitions.push_back({.topic_id = topic.topic_id,
                                           .topic_name = std::move(topic.topic_name),
                                           .partitions = std::move(topic.partitions)});
  }
  return assignment;
}

Response::Member to_member(ConsumerMemberDescription& member) {
  Response::Member described;
  described.member_id = std::move(member.member_id);
  described.instance_id = std::move(member.instance_id);
  described.rack_id = std::move(member.rack_id);
  described.member_epoch = member.member_epoch;
  described.client_id = std::move(member.client_id);
  described.client_host = std::move(member.client_host);
  described.subscribed_topic_names = std::move(member.subscribed_topic_names);
  described.assignment = to_assignment(member.assignment);
  described.target_assignment = to_assignment(member.target_assignment);
  return described;
}

}  // namespace

asio::awaitable<Reply> handle_consumer_group_describe(RequestContext& ctx) {
  const auto request = protocol::ConsumerGroupDescribeRequest::decode(ctx.body, ctx.version());
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
    ConsumerGroupDescription description = groups.describe_consumer_group(group_id);
    auto& group = response.groups.emplace_back();
    group.error_code = to_error_code(description.error);
    if (!description.error_message.empty()) {
      group.error_message = std::move(description.error_message);
    }
    group.group_id = description.error == GroupError::kNone ? std::move(description.group_id)
                                                            : std::string(group_id);
    group.group_state = std::move(description.group_state);
    group.group_epoch = description.group_epoch;
    group.assignment_epoch = description.assignment_epoch;
    group.assignor_name = std::move(description.assignor_name);
    group.members.reserve(description.members.size());
    for (ConsumerMemberDescription& member : description.members) {
      group.members.push_back(to_member(member));
    }
    if (group.error_code == protocol::ErrorCode::kNone && request->include_authorized_operations) {
      group.authorized_operations = authorized_operations(ctx, AclResourceType::kGroup, group_id);
    }
    hide_if_undescribable(ctx, group);
  }
  response.encode(ctx.response, ctx.version());
  co_return Reply::kSend;
}

}  // namespace kgroups::broker::handlers
