// SPDX-License-Identifier: Apache-2.0
//
// ListGroups (key 16): v0-5.
// - v0: every group the broker holds (with members, or with committed offsets), with its
//   protocol type; groups of both protocols, classic and consumer (KIP-848).
// - v1: throttle_time_ms (0). v2: same layout. v3: flexible.
// - v4: a filter by state (Kafka's state names, any case) and each group's state.
// - v5: a filter by type ("classic" or "consumer", any case) and each group's type.
#include <algorithm>
#include <cctype>
#include <string_view>
#include <utility>

#include "broker/handlers/handlers.h"
#include "protocol/messages/list_groups.h"

namespace kgroups::broker::handlers {
namespace {

bool equal_ignoring_case(std::string_view a, std::string_view b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) ==
           std::tolower(static_cast<unsigned char>(y));
  });
}

// True when `filter` is empty or holds `value` (ignoring case).
template <class Filter>
bool passes(const Filter& filter, std::string_view value) {
  return filter.empty() || std::any_of(filter.begin(), filter.end(), [&](const auto& wanted) {
           return equal_ignoring_case(wanted, value);
         });
}

}  // namespace

asio::awaitable<Reply> handle_list_groups(RequestContext& ctx) {
  const auto request = protocol::ListGroupsRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");
  protocol::ListGroupsResponse response;
  for (CoordinatorService::Listing& listing : ctx.broker.groups().list_groups()) {
    if (!passes(request->states_filter, listing.group.state) ||
        !passes(request->types_filter, listing.type)) {
      continue;
    }
    response.groups.push_back({.group_id = std::move(listing.group.group_id),
                               .protocol_type = std::move(listing.group.protocol_type),
                               .group_state = std::move(listing.group.state),
                               .group_type = std::string(listing.type)});
  }
  response.encode(ctx.response, ctx.version());
  co_return Reply::kSend;
}

}  // namespace kgroups::broker::handlers
