// SPDX-License-Identifier: Apache-2.0
//
// JoinGroup (key 11): v0-2.
// - v0: the session timeout is also the rebalance timeout. v1: rebalance_timeout_ms.
//   v2: throttle_time_ms in the response (always 0).
// - The request parks until the group's join phase completes (every known member has
//   rejoined, or the rebalance timeout drops the rest); only the leader's response lists the
//   members with their metadata.
// - Not served: v3+; so no MEMBER_ID_REQUIRED (v4, which the coordinator supports through
//   require_known_member_id) and no static membership (v5 group_instance_id).
#include <string>
#include <utility>

#include "broker/coordinator/join_group.h"
#include "broker/handlers/group_error_code.h"
#include "broker/handlers/group_refusal_log.h"
#include "broker/handlers/handlers.h"
#include "broker/handlers/parked_call.h"
#include "protocol/messages/join_group.h"

namespace kgroups::broker::handlers {

asio::awaitable<Reply> handle_join_group(RequestContext& ctx) {
  const auto request = protocol::JoinGroupRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");
  // Copy out of the frame before parking.
  JoinGroupParams params;
  params.group_id = std::string(request->group_id);
  params.member_id = std::string(request->member_id);
  params.client_id = std::string(ctx.header.client_id.value_or(""));
  params.client_host = client_host(ctx.peer);
  params.session_timeout_ms = request->session_timeout_ms;
  params.rebalance_timeout_ms = ctx.version() >= 1 ? request->rebalance_timeout_ms : -1;
  params.protocol_type = std::string(request->protocol_type);
  for (const auto& protocol : request->protocols) {
    params.protocols.push_back(GroupProtocol{std::string(protocol.name),
                                             {protocol.metadata.begin(), protocol.metadata.end()}});
  }
  params.require_known_member_id = ctx.version() >= 4;

  CoordinatorService& groups = ctx.broker.groups();
  const auto executor = co_await asio::this_coro::executor;
  JoinGroupResult result = co_await await_parked_call<JoinGroupResult>([&](JoinGroupCallback done) {
    groups.coordinator().join_group(std::move(params), std::move(done));
    groups.schedule_expiries(executor);
  });

  log_group_refusal(ctx.peer, "JoinGroup", request->group_id, result.error);
  protocol::JoinGroupResponse response;
  response.error_code = to_error_code(result.error);
  response.generation_id = result.generation_id;
  response.protocol_name = std::move(result.protocol_name);
  response.leader = std::move(result.leader_id);
  response.member_id = std::move(result.member_id);
  for (JoinedMember& member : result.members) {
    response.members.push_back(protocol::JoinGroupResponse::Member{
        std::move(member.member_id), std::nullopt, std::move(member.metadata)});
  }
  response.encode(ctx.response, ctx.version());
  co_return Reply::kSend;
}

}  // namespace kgroups::broker::handlers
