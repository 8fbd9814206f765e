// SPDX-License-Identifier: Apache-2.0
//
// DescribeGroups (key 15): v0-5.
// - v0: each group's state (Kafka's names), protocol type and, when Stable, the selected
//   assignor and every member's metadata and assignment. A group the broker does not have
//   is described as Dead with no error, as Kafka does.
// - A group named more than once is described once, so the response grows with the groups
//   that exist, not with the request's repetitions.
// - v1: throttle_time_ms (0). v2: same layout. v3: authorized operations when asked for
//   (authorized_operations.h). Authorization: DESCRIBE on each group, else
//   GROUP_AUTHORIZATION_FAILED. v4: each member's group_instance_id. v5: flexible.
// - A group of the consumer-group protocol (KIP-848) is not a classic group: Dead here, as
//   Kafka describes it; ConsumerGroupDescribe describes it.
// - A share group (KIP-932) is answered with protocol type "share", its state ("Empty" or
//   "Stable") and its members' ids, client ids and hosts, without metadata or assignments
//   (ShareGroupDescribe gives those).
// - Injected errors (POST /v1/faults): a group an armed DescribeGroups or coordinator fault
//   matches is answered with that error and nothing else.
#include <string>
#include <unordered_set>
#include <utility>

#include "broker/handlers/authorization_error.h"
#include "broker/handlers/authorized_operations.h"
#include "broker/handlers/coordinator_check.h"
#include "broker/handlers/group_error_code.h"
#include "broker/handlers/handlers.h"
#include "protocol/messages/describe_groups.h"

namespace kgroups::broker::handlers {

asio::awaitable<Reply> handle_describe_groups(RequestContext& ctx) {
  const auto request = protocol::DescribeGroupsRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");
  CoordinatorService& groups = ctx.broker.groups();
  protocol::DescribeGroupsResponse response;
  std::unordered_set<std::string_view> seen;
  for (const std::string_view group_id : request->groups) {
    if (!seen.insert(group_id).second) continue;
    protocol::ErrorCode injected =
        group_authorization_error(ctx, AclOperation::kDescribe, group_id);
    if (injected == protocol::ErrorCode::kNone) {
      injected = coordinator_refusal(ctx, protocol::ApiKey::kDescribeGroups, group_id);
    }
    if (injected != protocol::ErrorCode::kNone) {
      auto& group = response.groups.emplace_back();
      group.error_code = injected;
      group.group_id = std::string(group_id);
      continue;
    }
    GroupSummary summary = groups.describe_group(group_id);
    auto& group = response.groups.emplace_back();
    group.error_code = to_error_code(summary.error);
    group.group_id = std::move(summary.group_id);
    group.group_state = std::move(summary.state);
    group.protocol_type = std::move(summary.protocol_type);
    group.protocol_data = std::move(summary.protocol_name);
    if (ctx.version() >= 3 && request->include_authorized_operations) {
      group.authorized_operations = authorized_operations(ctx, AclResourceType::kGroup, group_id);
    }
    for (MemberSummary& member : summary.members) {
      auto& described = group.members.emplace_back();
      described.member_id = std::move(member.member_id);
      described.group_instance_id = std::move(member.group_instance_id);
      described.client_id = std::move(member.client_id);
      described.client_host = std::move(member.client_host);
      described.member_metadata = std::move(member.metadata);
      described.member_assignment = std::move(member.assignment);
    }
  }
  for (const auto& group : response.groups) ctx.count_error(group.error_code);
  response.encode(ctx.response, ctx.version());
  co_return Reply::kSend;
}

}  // namespace kgroups::broker::handlers
