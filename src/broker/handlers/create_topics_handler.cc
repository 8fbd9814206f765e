// SPDX-License-Identifier: Apache-2.0
//
// CreateTopics (key 19): v0-4.
// - v0: creates each topic with num_partitions partitions; -1 (any version; officially v4+)
//   means the broker's default partition count. replication_factor must be 1 or -1 (this is
//   one broker): otherwise INVALID_REPLICATION_FACTOR.
// - v1: validate_only checks without creating; error_message says what was wrong.
// - v2-4: throttle_time_ms (0).
// - Errors per topic: TOPIC_ALREADY_EXISTS, INVALID_TOPIC_EXCEPTION (illegal name),
//   INVALID_PARTITIONS, INVALID_REQUEST for a topic named twice in one request (none of those
//   is created), INVALID_REPLICA_ASSIGNMENT for explicit assignments (not implemented).
//   Topic configs are accepted and ignored.
// timeout_ms is not needed: creation is immediate.
#include <map>
#include <string>

#include "broker/handlers/handlers.h"
#include "protocol/messages/create_topics.h"

namespace kgroups::broker::handlers {
namespace {

using protocol::ErrorCode;

std::string explain(ErrorCode error, const protocol::CreateTopicsRequest::Topic& topic) {
  const std::string name(topic.name);
  switch (error) {
    case ErrorCode::kTopicAlreadyExists:
      return "Topic '" + name + "' already exists.";
    case ErrorCode::kInvalidTopicException:
      return "Topic name '" + name +
             "' is illegal: use 1-249 characters of ASCII letters, digits, '.', '_' and '-'.";
    case ErrorCode::kInvalidPartitions:
      return "Number of partitions must be at least 1 (or -1 for the broker default), got " +
             std::to_string(topic.num_partitions) + ".";
    case ErrorCode::kInvalidReplicationFactor:
      return "Replication factor must be 1 (or -1): kgroupsd is a single broker; got " +
             std::to_string(topic.replication_factor) + ".";
    case ErrorCode::kInvalidReplicaAssignment:
      return "Explicit replica assignments are not supported; give num_partitions instead.";
    case ErrorCode::kInvalidRequest:
      return "Topic '" + name + "' appears more than once in the request.";
    default:
      return std::string(protocol::error_name(error));
  }
}

}  // namespace

asio::awaitable<Reply> handle_create_topics(RequestContext& ctx) {
  const auto request = protocol::CreateTopicsRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");

  Cluster& cluster = ctx.broker.cluster();
  std::map<std::string_view, int> mentions;
  for (const auto& topic : request->topics) ++mentions[topic.name];

  protocol::CreateTopicsResponse response;
  for (const auto& topic : request->topics) {
    const std::int32_t partitions =
        topic.num_partitions == -1 ? cluster.default_partitions() : topic.num_partitions;
    ErrorCode error = ErrorCode::kNone;
    if (mentions[topic.name] > 1) {
      error = ErrorCode::kInvalidRequest;
    } else if (!topic.assignments.empty()) {
      error = ErrorCode::kInvalidReplicaAssignment;
    } else if (topic.replication_factor != 1 && topic.replication_factor != -1) {
      error = ErrorCode::kInvalidReplicationFactor;
    } else if (request->validate_only) {
      error = cluster.check_new_topic(topic.name, partitions);
    } else {
      error = cluster.create_topic(topic.name, partitions);
    }
    auto& out = response.topics.emplace_back();
    out.name = std::string(topic.name);
    out.error_code = error;
    if (error != ErrorCode::kNone) out.error_message = explain(error, topic);
  }
  response.encode(ctx.response, ctx.version());
  co_return Reply::kSend;
}

}  // namespace kgroups::broker::handlers
