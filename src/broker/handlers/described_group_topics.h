// SPDX-License-Identifier: Apache-2.0
//
// Kafka's topic rules for the KIP-848 and KIP-932 group APIs, shared by their handlers:
// - subscribes_undescribable(): ConsumerGroupHeartbeat and ShareGroupHeartbeat answer
//   TOPIC_AUTHORIZATION_FAILED when a subscribed topic name is one the client may not DESCRIBE;
// - hide_if_undescribable(): ConsumerGroupDescribe and ShareGroupDescribe answer a group whose
//   members' assignments (and target assignments) name such a topic with
//   TOPIC_AUTHORIZATION_FAILED and nothing of its members, so no topic name leaks.
// With the authorizer off both do nothing. Not thread-safe: a handler's own request.
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "broker/handlers/request_context.h"

namespace kgroups::broker::handlers {

inline bool may_describe_topic(const RequestContext& ctx, std::string_view topic) {
  return ctx.allowed(AclOperation::kDescribe, AclResourceType::kTopic, topic);
}

template <class Names>
bool subscribes_undescribable(const RequestContext& ctx, const std::optional<Names>& names) {
  if (!ctx.authorizing() || !names) return false;
  for (const auto& name : *names) {
    if (!may_describe_topic(ctx, name)) return true;
  }
  return false;
}

template <class Group>
void hide_if_undescribable(const RequestContext& ctx, Group& group) {
  if (!ctx.authorizing()) return;
  std::vector<std::string_view> checked;  // one lookup per topic
  const auto hides = [&](const auto& assignment) {
    for (const auto& topic : assignment.topic_partitions) {
      if (std::find(checked.begin(), checked.end(), topic.topic_name) != checked.end()) continue;
      if (!may_describe_topic(ctx, topic.topic_name)) return true;
      checked.push_back(topic.topic_name);
    }
    return false;
  };
  bool hidden = false;
  for (const auto& member : group.members) {
    hidden = hidden || hides(member.assignment);
    if constexpr (requires { member.target_assignment; }) {
      hidden = hidden || hides(member.target_assignment);
    }
  }
  if (!hidden) return;
  Group refused;
  refused.group_id = std::move(group.group_id);
  refused.error_code = protocol::ErrorCode::kTopicAuthorizationFailed;
  refused.error_message =
      "The group has described topic(s) that the client is not authorized to describe.";
  group = std::move(refused);
}

}  // namespace kgroups::broker::handlers
