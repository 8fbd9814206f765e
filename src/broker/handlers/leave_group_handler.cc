// SPDX-License-Identifier: Apache-2.0
//
// LeaveGroup (key 13): v0-1.
// - v0: removes the member; the group rebalances at once, without waiting for a session
//   timeout. v1: throttle_time_ms in the response (always 0).
// - Not served: v2+ (v3 leaves several members at once, for static membership).
#include <string>
#include <vector>

#include "broker/handlers/group_error_code.h"
#include "broker/handlers/handlers.h"
#include "protocol/messages/leave_group.h"

namespace kgroups::broker::handlers {

asio::awaitable<Reply> handle_leave_group(RequestContext& ctx) {
  const auto request = protocol::LeaveGroupRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");
  CoordinatorService& groups = ctx.broker.groups();
  const LeaveGroupResult result = groups.coordinator().leave_group(
      request->group_id,
      std::vector<LeavingMember>{LeavingMember{std::string(request->member_id), std::nullopt}});
  groups.schedule_expiries(co_await asio::this_coro::executor);
  protocol::LeaveGroupResponse response;
  // One member per request in these versions: its error is the request's.
  response.error_code =
      to_error_code(result.error != GroupError::kNone || result.member_errors.empty()
                        ? result.error
                        : result.member_errors.front());
  response.encode(ctx.response, ctx.version());
  co_return Reply::kSend;
}

}  // namespace kgroups::broker::handlers
