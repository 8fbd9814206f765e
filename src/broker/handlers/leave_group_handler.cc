// SPDX-License-Identifier: Apache-2.0
//
// LeaveGroup (key 13): v0-5.
// - v0: removes the member; the group rebalances at once, without waiting for a session
//   timeout. v1: throttle_time_ms in the response (always 0). v2: same layout.
// - v3: a batch of members, each by member id or by group_instance_id (static members), with
//   an error per member (UNKNOWN_MEMBER_ID, FENCED_INSTANCE_ID); one rebalance for the batch.
// - v4: flexible. v5: a reason per member (not used).
// - Injected errors (POST /v1/faults): an armed LeaveGroup or coordinator fault answers its
//   error (v3+: with no members) and nobody leaves.
#include <string>
#include <vector>

#include "broker/handlers/authorization_error.h"
#include "broker/handlers/coordinator_check.h"
#include "broker/handlers/group_error_code.h"
#include "broker/handlers/handlers.h"
#include "protocol/messages/leave_group.h"

namespace kgroups::broker::handlers {

asio::awaitable<Reply> handle_leave_group(RequestContext& ctx) {
  const auto request = protocol::LeaveGroupRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");

  std::vector<LeavingMember> leaving;
  if (ctx.version() <= 2) {
    leaving.push_back({std::string(request->member_id), std::nullopt});
  } else {
    leaving.reserve(request->members.size());
    for (const auto& member : request->members) {
      leaving.push_back({std::string(member.member_id),
                         member.group_instance_id
                             ? std::optional<std::string>(*member.group_instance_id)
                             : std::nullopt});
    }
  }
  LeaveGroupResult result;
  protocol::ErrorCode injected =
      group_authorization_error(ctx, AclOperation::kRead, request->group_id);
  if (injected == protocol::ErrorCode::kNone) {
    injected = coordinator_refusal(ctx, protocol::ApiKey::kLeaveGroup, request->group_id);
  }
  if (injected != protocol::ErrorCode::kNone) {
    result.error = injected_group_error(injected);
  } else {
    result = ctx.broker.groups().leave_group(request->group_id, leaving);
  }

  protocol::LeaveGroupResponse response;
  if (ctx.version() <= 2) {
    // One member per request in these versions: its error is the request's.
    response.error_code =
        to_error_code(result.error != GroupError::kNone || result.member_errors.empty()
                          ? result.error
                          : result.member_errors.front());
  } else {
    response.error_code = to_error_code(result.error);
    if (result.error == GroupError::kNone) {
      for (std::size_t i = 0; i < leaving.size(); ++i) {
        response.members.push_back(
            {.member_id = std::move(leaving[i].member_id),
             .group_instance_id = std::move(leaving[i].group_instance_id),
             .error_code = to_error_code(i < result.member_errors.size() ? result.member_errors[i]
                                                                         : GroupError::kNone)});
      }
    }
  }
  ctx.count_error(response.error_code);
  for (const auto& member : response.members) ctx.count_error(member.error_code);
  response.encode(ctx.response, ctx.version());
  co_return Reply::kSend;
}

}  // namespace kgroups::broker::handlers
