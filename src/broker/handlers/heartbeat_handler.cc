// SPDX-License-Identifier: Apache-2.0
//
// Heartbeat (key 12): v0-1.
// - v0: refreshes the member's session; REBALANCE_IN_PROGRESS tells it to rejoin.
//   v1: throttle_time_ms in the response (always 0).
// - Not served: v2+ (v3 group_instance_id: no static membership).
#include "broker/handlers/group_error_code.h"
#include "broker/handlers/handlers.h"
#include "protocol/messages/heartbeat.h"

namespace kgroups::broker::handlers {

asio::awaitable<Reply> handle_heartbeat(RequestContext& ctx) {
  const auto request = protocol::HeartbeatRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");
  CoordinatorService& groups = ctx.broker.groups();
  protocol::HeartbeatResponse response;
  response.error_code = to_error_code(groups.coordinator().heartbeat(
      request->group_id, request->generation_id, request->member_id, std::nullopt));
  groups.schedule_expiries(co_await asio::this_coro::executor);
  response.encode(ctx.response, ctx.version());
  co_return Reply::kSend;
}

}  // namespace kgroups::broker::handlers
