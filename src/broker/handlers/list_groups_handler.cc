// SPDX-License-Identifier: Apache-2.0
//
// ListGroups (key 16): v0.
// - v0: every group the broker holds (with members, or with committed offsets), with its
//   protocol type.
// - Not served: v1+ (throttle time; v4 state filter).
#include <utility>

#include "broker/handlers/handlers.h"
#include "protocol/messages/list_groups.h"

namespace kgroups::broker::handlers {

asio::awaitable<Reply> handle_list_groups(RequestContext& ctx) {
  const auto request = protocol::ListGroupsRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");
  CoordinatorService& groups = ctx.broker.groups();
  protocol::ListGroupsResponse response;
  for (GroupListing& listing : groups.coordinator().list_groups()) {
    response.groups.push_back(protocol::ListGroupsResponse::Group{
        std::move(listing.group_id), std::move(listing.protocol_type)});
  }
  groups.schedule_expiries(co_await asio::this_coro::executor);
  response.encode(ctx.response, ctx.version());
  co_return Reply::kSend;
}

}  // namespace kgroups::broker::handlers
