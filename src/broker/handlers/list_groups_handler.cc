// SPDX-License-Identifier: Apache-2.0
//
// ListGroups (key 16): v0-5.
// - v0: every group the broker holds (with members, or with committed offsets), with its
//   protocol type; classic, consumer (KIP-848) and share (KIP-932, protocol type "share") groups.
// - v1: throttle_time_ms (0). v2: same layout. v3: flexible.
// - v4: a filter by state (Kafka's state names, any case) and each group's state.
// - v5: a filter by type ("classic", "consumer" or "share", any case) and each group's type.
// - The filters are read into sets first, so their length adds to the work once, not once
//   per group.
#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include "broker/handlers/handlers.h"
#include "broker/runtime/ascii_case.h"
#include "protocol/messages/list_groups.h"

namespace kgroups::broker::handlers {
namespace {

// A request's filter, lowercased into a set: each group is checked in O(1), so a filter of
// many entries costs its own size once, not its size times the groups.
class Filter {
 public:
  explicit Filter(const std::vector<std::string_view>& values) {
    for (const std::string_view value : values) wanted_.insert(ascii_lowercase(value));
  }
  // True when the filter is empty or holds `value` (ignoring case).
  [[nodiscard]] bool passes(std::string_view value) const {
    return wanted_.empty() || wanted_.contains(ascii_lowercase(value));
  }

 private:
  std::unordered_set<std::string> wanted_;
};

}  // namespace

asio::awaitable<Reply> handle_list_groups(RequestContext& ctx) {
  const auto request = protocol::ListGroupsRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");
  const Filter states(request->states_filter);
  const Filter types(request->types_filter);
  // Kafka: every group with DESCRIBE on the cluster, else those the client may DESCRIBE.
  const bool sees_every_group = ctx.allowed_on_cluster(AclOperation::kDescribe);
  protocol::ListGroupsResponse response;
  for (CoordinatorService::Listing& listing : ctx.broker.groups().list_groups()) {
    if (!states.passes(listing.group.state) || !types.passes(listing.type)) continue;
    if (!sees_every_group &&
        !ctx.allowed(AclOperation::kDescribe, AclResourceType::kGroup, listing.group.group_id)) {
      continue;
    }
    response.groups.push_back({.group_id = std::move(listing.group.group_id),
                               .protocol_type = std::move(listing.group.protocol_type),
                               .group_state = std::move(listing.group.state),
                               .group_type = std::string(listing.type)});
  }
  ctx.count_error(response.error_code);
  response.encode(ctx.response, ctx.version());
  co_return Reply::kSend;
}

}  // namespace kgroups::broker::handlers
