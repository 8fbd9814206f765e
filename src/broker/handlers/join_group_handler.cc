// SPDX-License-Identifier: Apache-2.0
//
// JoinGroup (key 11): v0-9.
// - v0: the session timeout is also the rebalance timeout. v1: rebalance_timeout_ms.
//   v2: throttle_time_ms in the response (always 0). v3: same layout.
// - v4: a new dynamic member first gets MEMBER_ID_REQUIRED with its id and joins again.
// - v5: group_instance_id (static membership, KIP-345): a known instance rejoining with an
//   empty member id takes its place back (new member id, same assignment) without a
//   rebalance when the group is Stable; an old member id of a replaced instance gets
//   FENCED_INSTANCE_ID. Members in the leader's list carry their instance ids.
// - v6: flexible. v7: the response carries protocol_type. v8: reason (logged at DEBUG by
//   the connection only; not used). v9: skip_assignment for a static leader that rejoined
//   a Stable group: it gets the member list but must not assign again.
// - The request parks until the group's join phase completes (every known member has
//   rejoined, or the rebalance timeout drops the rest); only the leader's response lists the
//   members with their metadata. A group of the consumer-group protocol (KIP-848) gets
//   INCONSISTENT_GROUP_PROTOCOL.
// - Injected errors (POST /v1/faults): an armed JoinGroup or coordinator fault answers its error
//   at once, as the coordinator answers its own (generation -1, the member id as sent), and
//   the group is not touched.
#include <string>
#include <utility>

#include "broker/coordinator/join_group.h"
#include "broker/handlers/authorization_error.h"
#include "broker/handlers/coordinator_check.h"
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
  if (request->group_instance_id)
    params.group_instance_id = std::string(*request->group_instance_id);
  params.require_known_member_id = ctx.version() >= 4;
  params.supports_skip_assignment = ctx.version() >= 9;

  JoinGroupResult result;
  const protocol::ErrorCode denied =
      group_authorization_error(ctx, AclOperation::kRead, request->group_id);
  const protocol::ErrorCode injected =
      denied != protocol::ErrorCode::kNone
          ? denied
          : coordinator_refusal(ctx, protocol::ApiKey::kJoinGroup, request->group_id);
  if (denied != protocol::ErrorCode::kNone) {
    result = join_error(injected_group_error(denied), std::string());  // Kafka: no member id
  } else if (injected != protocol::ErrorCode::kNone) {
    result = join_error(injected_group_error(injected), std::move(params.member_id));
  } else {
    CoordinatorService& groups = ctx.broker.groups();
    result = co_await await_parked_call<JoinGroupResult>(
        [&](JoinGroupCallback done) { groups.join_group(std::move(params), std::move(done)); });
    log_group_refusal(ctx.peer, "JoinGroup", request->group_id, result.error);
  }

  protocol::JoinGroupResponse response;
  response.error_code = to_error_code(result.error);
  response.generation_id = result.generation_id;
  if (!result.protocol_type.empty()) response.protocol_type = std::move(result.protocol_type);
  // v7+: null until the group has chosen an assignor; earlier versions write "".
  if (!result.protocol_name.empty() || ctx.version() < 7) {
    response.protocol_name = std::move(result.protocol_name);
  } else {
    response.protocol_name = std::nullopt;
  }
  response.leader = std::move(result.leader_id);
  response.skip_assignment = result.skip_assignment;
  response.member_id = std::move(result.member_id);
  for (JoinedMember& member : result.members) {
    response.members.push_back({.member_id = std::move(member.member_id),
                                .group_instance_id = std::move(member.group_instance_id),
                                .metadata = std::move(member.metadata)});
  }
  ctx.count_error(response.error_code);
  response.encode(ctx.response, ctx.version());
  co_return Reply::kSend;
}

}  // namespace kgroups::broker::handlers
