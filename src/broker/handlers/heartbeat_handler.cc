// SPDX-License-Identifier: Apache-2.0
//
// Heartbeat (key 12): v0-4.
// - v0: refreshes the member's session; REBALANCE_IN_PROGRESS tells it to rejoin.
//   v1: throttle_time_ms in the response (always 0). v2: same layout.
// - v3: group_instance_id: a replaced static member gets FENCED_INSTANCE_ID. v4: flexible.
// - Injected errors (POST /v1/faults): an armed Heartbeat or coordinator fault answers its
//   error without refreshing the member's session.
#include "broker/handlers/authorization_error.h"
#include "broker/handlers/coordinator_check.h"
#include "broker/handlers/group_error_code.h"
#include "broker/handlers/handlers.h"
#include "protocol/messages/heartbeat.h"

namespace kgroups::broker::handlers {

asio::awaitable<Reply> handle_heartbeat(RequestContext& ctx) {
  const auto request = protocol::HeartbeatRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");
  protocol::HeartbeatResponse response;
  response.error_code = group_authorization_error(ctx, AclOperation::kRead, request->group_id);
  if (response.error_code == protocol::ErrorCode::kNone) {
    response.error_code = coordinator_refusal(ctx, protocol::ApiKey::kHeartbeat, request->group_id);
  }
  if (response.error_code == protocol::ErrorCode::kNone) {
    response.error_code = to_error_code(ctx.broker.groups().heartbeat(
        request->group_id, request->generation_id, request->member_id, request->group_instance_id));
  }
  ctx.count_error(response.error_code);
  response.encode(ctx.response, ctx.version());
  co_return Reply::kSend;
}

}  // namespace kgroups::broker::handlers
