// SPDX-License-Identifier: Apache-2.0
//
// DeleteGroups (key 42): v0-2.
// - v0: deletes each group without members, classic or consumer (KIP-848), with its committed
//   offsets, releasing the memory they were counted for. Errors per group:
//   GROUP_ID_NOT_FOUND (no such group), NON_EMPTY_GROUP (it has members, or a classic group
//   is rebalancing), INVALID_GROUP_ID (empty or too long).
// - v1: same. v2: flexible.
#include <string>

#include "broker/handlers/authorization_error.h"
#include "broker/handlers/group_error_code.h"
#include "broker/handlers/handlers.h"
#include "protocol/messages/delete_groups.h"

namespace kgroups::broker::handlers {

asio::awaitable<Reply> handle_delete_groups(RequestContext& ctx) {
  const auto request = protocol::DeleteGroupsRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");
  protocol::DeleteGroupsResponse response;
  for (const std::string_view group_id : request->groups_names) {
    auto& out = response.results.emplace_back();
    out.group_id = std::string(group_id);
    out.error_code = group_authorization_error(ctx, AclOperation::kDelete, group_id);
    if (out.error_code == protocol::ErrorCode::kNone) {
      out.error_code = to_error_code(ctx.broker.groups().delete_group(group_id));
    }
  }
  for (const auto& result : response.results) ctx.count_error(result.error_code);
  response.encode(ctx.response, ctx.version());
  co_return Reply::kSend;
}

}  // namespace kgroups::broker::handlers
