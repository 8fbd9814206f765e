// SPDX-License-Identifier: Apache-2.0
//
// OffsetDelete (key 47): v0.
// - v0: deletes a group's committed offsets of the given partitions. Errors for the whole
//   request (no topics in the answer): GROUP_ID_NOT_FOUND, INVALID_GROUP_ID, NON_EMPTY_GROUP
//   (a classic group with members of a protocol type other than "consumer"). Per partition:
//   UNKNOWN_TOPIC_OR_PARTITION (no such partition), GROUP_SUBSCRIBED_TO_TOPIC (a member
//   subscribes to its topic: classic groups by the members' consumer-protocol
//   subscriptions, KIP-848 groups by their subscribed topic names; kept).
#include <string>
#include <vector>

#include "broker/handlers/authorization_error.h"
#include "broker/handlers/group_error_code.h"
#include "broker/handlers/handlers.h"
#include "protocol/messages/offset_delete.h"

namespace kgroups::broker::handlers {

asio::awaitable<Reply> handle_offset_delete(RequestContext& ctx) {
  const auto request = protocol::OffsetDeleteRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");
  protocol::OffsetDeleteResponse response;
  response.error_code = group_authorization_error(ctx, AclOperation::kDelete, request->group_id);
  if (response.error_code != protocol::ErrorCode::kNone) {
    ctx.count_error(response.error_code);
    response.encode(ctx.response, ctx.version());
    co_return Reply::kSend;
  }
  Cluster& cluster = ctx.broker.cluster();
  // Kafka: the topics the client may not READ answer TOPIC_AUTHORIZATION_FAILED.
  const auto topic_denied = [&](std::string_view topic) {
    return !ctx.allowed(AclOperation::kRead, AclResourceType::kTopic, topic);
  };
  // The partitions that exist go to the coordinator; the others are answered here.
  std::vector<TopicPartition> existing;
  for (const auto& topic : request->topics) {
    if (topic_denied(topic.name)) continue;
    for (const auto& partition : topic.partitions) {
      if (cluster.find_partition(topic.name, partition.partition_index) != nullptr) {
        existing.push_back({std::string(topic.name), partition.partition_index});
      }
    }
  }
  const OffsetDeleteResult result = ctx.broker.groups().delete_offsets(request->group_id, existing);
  response.error_code = to_error_code(result.error);
  if (result.error == GroupError::kNone) {
    std::size_t next = 0;  // the next of result.partition_errors
    for (const auto& topic : request->topics) {
      auto& out_topic = response.topics.emplace_back();
      out_topic.name = std::string(topic.name);
      const bool denied = topic_denied(topic.name);
      for (const auto& partition : topic.partitions) {
        auto& out = out_topic.partitions.emplace_back();
        out.partition_index = partition.partition_index;
        out.error_code = denied ? protocol::ErrorCode::kTopicAuthorizationFailed
                         : cluster.find_partition(topic.name, partition.partition_index) == nullptr
                             ? protocol::ErrorCode::kUnknownTopicOrPartition
                             : to_error_code(result.partition_errors[next++]);
      }
    }
  }
  response.encode(ctx.response, ctx.version());
  co_return Reply::kSend;
}

}  // namespace kgroups::broker::handlers
