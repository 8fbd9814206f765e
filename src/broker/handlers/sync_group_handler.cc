// SPDX-License-Identifier: Apache-2.0
//
// SyncGroup (key 14): v0-5.
// - v0: the leader sends every member's assignment; each member gets its own back.
//   v1: throttle_time_ms in the response (always 0). v2: same layout.
// - v3: group_instance_id: a replaced static member gets FENCED_INSTANCE_ID. v4: flexible.
// - v5: protocol_type and protocol_name, checked against the group's
//   (INCONSISTENT_GROUP_PROTOCOL) and echoed in the response.
// - A follower that syncs before the leader parks until the leader's assignment arrives; one
//   that syncs after it gets its assignment at once.
// - Injected errors (POST /v1/faults): an armed SyncGroup or coordinator fault answers its error
//   with no assignment, and the group is not touched.
#include <string>
#include <utility>

#include "broker/coordinator/sync_group.h"
#include "broker/handlers/authorization_error.h"
#include "broker/handlers/coordinator_check.h"
#include "broker/handlers/group_error_code.h"
#include "broker/handlers/group_refusal_log.h"
#include "broker/handlers/handlers.h"
#include "broker/handlers/parked_call.h"
#include "protocol/messages/sync_group.h"

namespace kgroups::broker::handlers {

asio::awaitable<Reply> handle_sync_group(RequestContext& ctx) {
  const auto request = protocol::SyncGroupRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");

  SyncGroupParams params;
  params.group_id = std::string(request->group_id);
  params.generation_id = request->generation_id;
  params.member_id = std::string(request->member_id);
  if (request->group_instance_id)
    params.group_instance_id = std::string(*request->group_instance_id);
  if (request->protocol_type) params.protocol_type = std::string(*request->protocol_type);
  if (request->protocol_name) params.protocol_name = std::string(*request->protocol_name);
  for (const auto& assignment : request->assignments) {
    params.assignments.push_back(
        MemberAssignment{std::string(assignment.member_id),
                         {assignment.assignment.begin(), assignment.assignment.end()}});
  }
  SyncGroupResult result;
  protocol::ErrorCode injected =
      group_authorization_error(ctx, AclOperation::kRead, request->group_id);
  if (injected == protocol::ErrorCode::kNone) {
    injected = coordinator_refusal(ctx, protocol::ApiKey::kSyncGroup, request->group_id);
  }
  if (injected != protocol::ErrorCode::kNone) {
    result = sync_error(injected_group_error(injected));
  } else {
    CoordinatorService& groups = ctx.broker.groups();
    result = co_await await_parked_call<SyncGroupResult>(
        [&](SyncGroupCallback done) { groups.sync_group(std::move(params), std::move(done)); });
    log_group_refusal(ctx.peer, "SyncGroup", request->group_id, result.error);
  }

  protocol::SyncGroupResponse response;
  response.error_code = to_error_code(result.error);
  if (result.error == GroupError::kNone) {
    response.protocol_type = std::move(result.protocol_type);
    response.protocol_name = std::move(result.protocol_name);
  }
  response.assignment = std::move(result.assignment);
  ctx.count_error(response.error_code);
  response.encode(ctx.response, ctx.version());
  co_return Reply::kSend;
}

}  // namespace kgroups::broker::handlers
