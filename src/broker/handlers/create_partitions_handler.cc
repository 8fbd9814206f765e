// SPDX-License-Identifier: Apache-2.0
//
// CreatePartitions (key 37): v0-3.
// - v0: grows each topic to `count` partitions (new, empty ones; existing partitions keep
//   their records); validate_only checks without growing. KIP-848 groups subscribed to it
//   rebalance at their next heartbeat; classic groups when their leader sees the new
//   partition count in Metadata (clients refresh it every metadata.max.age.ms).
//   Errors per topic, with error_message: UNKNOWN_TOPIC_OR_PARTITION, INVALID_PARTITIONS
//   (not more than the current count, which the message gives, or more than
//   --max-partitions-per-topic), POLICY_VIOLATION (past --max-partitions in all, or past
//   --max-partitions-per-request counted over the request in order),
//   INVALID_REPLICA_ASSIGNMENT (explicit assignments: this is one broker, placement is not
//   the client's), INVALID_REQUEST for a topic named twice (none of those grows).
// - v1: same. v2: flexible. v3: same.
// timeout_ms is not needed: growth is immediate.
#include <map>
#include <string>

#include "broker/handlers/handlers.h"
#include "broker/runtime/logger.h"
#include "protocol/messages/create_partitions.h"

namespace kgroups::broker::handlers {
namespace {

using protocol::ErrorCode;

constexpr std::size_t kMaxErrorMessages = 64;

std::string explain(ErrorCode error, std::string_view name, std::int32_t count, std::size_t current,
                    const ClusterConfig& limits) {
  const std::string topic = "Topic '" + std::string(name) + "'";
  switch (error) {
    case ErrorCode::kUnknownTopicOrPartition:
      return topic + " does not exist.";
    case ErrorCode::kInvalidPartitions:
      if (std::cmp_equal(count, current)) {
        return topic + " already has " + std::to_string(current) + " partitions.";
      }
      if (std::cmp_less(count, current)) {
        return topic + " currently has " + std::to_string(current) +
               " partitions, which is higher than the requested " + std::to_string(count) + ".";
      }
      return "Number of partitions must be at most " +
             std::to_string(limits.max_partitions_per_topic) +
             " (--max-partitions-per-topic); got " + std::to_string(count) + ".";
    case ErrorCode::kPolicyViolation:
      return "Growing " + topic + " to " + std::to_string(count) +
             " partitions would exceed --max-partitions " + std::to_string(limits.max_partitions) +
             " or the partitions one request may create (--max-partitions-per-request).";
    case ErrorCode::kInvalidReplicaAssignment:
      return "Explicit replica assignments are not supported: kgroupsd is a single broker; "
             "give the count only.";
    case ErrorCode::kInvalidRequest:
      return topic + " appears more than once in the request.";
    default:
      return std::string(protocol::error_name(error));
  }
}

}  // namespace

asio::awaitable<Reply> handle_create_partitions(RequestContext& ctx) {
  const auto request = protocol::CreatePartitionsRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");
  Cluster& cluster = ctx.broker.cluster();
  std::map<std::string_view, int> mentions;
  for (const auto& topic : request->topics) ++mentions[topic.name];

  const std::int64_t per_request = ctx.broker.config().max_partitions_per_request;
  std::int64_t requested = 0;  // partitions the topics so far that passed would add
  std::size_t messages = 0;
  protocol::CreatePartitionsResponse response;
  for (const auto& request_topic : request->topics) {
    StoredTopic* topic = cluster.find_topic(request_topic.name);
    const std::size_t current = topic == nullptr ? 0 : topic->partitions.size();
    ErrorCode error = ErrorCode::kNone;
    if (mentions[request_topic.name] > 1) {
      error = ErrorCode::kInvalidRequest;
    } else if (!ctx.allowed(AclOperation::kAlter, AclResourceType::kTopic, request_topic.name)) {
      error = ErrorCode::kTopicAuthorizationFailed;  // Kafka: ALTER on the topic; no message
    } else if (topic == nullptr) {
      error = ErrorCode::kUnknownTopicOrPartition;
    } else if (request_topic.assignments.has_value()) {
      error = ErrorCode::kInvalidReplicaAssignment;
    } else {
      error = cluster.check_new_partitions(*topic, request_topic.count);
      const std::int64_t added =
          static_cast<std::int64_t>(request_topic.count) - static_cast<std::int64_t>(current);
      if (error == ErrorCode::kNone && requested + added > per_request) {
        error = ErrorCode::kPolicyViolation;
      }
      if (error == ErrorCode::kNone) {
        requested += added;
        if (!request->validate_only) {
          error = cluster.add_partitions(*topic, request_topic.count);
          log_info(std::string(ctx.peer) + " grew topic " + quote(request_topic.name) + " from " +
                   std::to_string(current) + " to " + std::to_string(request_topic.count) +
                   " partitions");
        }
      }
    }
    auto& out = response.results.emplace_back();
    out.name = std::string(request_topic.name);
    out.error_code = error;
    if (error != ErrorCode::kNone && error != ErrorCode::kTopicAuthorizationFailed &&
        messages++ < kMaxErrorMessages) {
      out.error_message =
          explain(error, request_topic.name, request_topic.count, current, cluster.config());
    }
  }
  response.encode(ctx.response, ctx.version());
  co_return Reply::kSend;
}

}  // namespace kgroups::broker::handlers
