// SPDX-License-Identifier: Apache-2.0
//
// CreateTopics (key 19): v0-7.
// - v0: creates each topic with num_partitions partitions; -1 (any version; officially v4+)
//   means the broker's default partition count. replication_factor: 1 to the brokers
//   (--brokers), -1 for --default-replication-factor; otherwise INVALID_REPLICATION_FACTOR.
//   Replicas are placed as Kafka's rack-unaware assignment does, or as `assignments` says
//   (both counts then -1, else INVALID_REQUEST; partitions 0..N-1 once each with the same
//   number of distinct known brokers, else INVALID_REPLICA_ASSIGNMENT).
// - v1: validate_only checks without creating; error_message says what was wrong.
// - v2-4: throttle_time_ms (0).
// - v5: flexible; a created (or validated) topic is echoed with its partition count,
//   replication factor and every topic config (see topic_config_catalog.h) with its source:
//   1 for a value the request gave, 4 for a broker flag that differs from Kafka's default,
//   5 for Kafka's default; null configs and -1 counts on error. v6: same layout. v7: the new
//   topic's id (zero with validate_only or on error).
// - Errors per topic: TOPIC_ALREADY_EXISTS, INVALID_TOPIC_EXCEPTION (illegal name),
//   INVALID_PARTITIONS (< 1, or more than --max-partitions-per-topic), POLICY_VIOLATION (past
//   --max-topics or --max-partitions, or past --max-partitions-per-request counted over the
//   request in order), INVALID_REQUEST for a topic named twice in one request (none of those
//   is created), INVALID_CONFIG for a config name Kafka does not define for topics, an invalid or
//   null value, or a name given twice (the message says what is allowed).
// - Configs: every topic config is checked against the catalog and stored as given; the
//   broker acts on those TopicConfig holds (docs/TOPIC-CONFIGS.md).
// - error_message is given for the first kMaxErrorMessages failed topics only, so a request
//   of many bad topics cannot make a response much larger than itself.
// The work is services/topic_admin.h's create_topics().
// timeout_ms is not needed: creation is immediate.
#include <map>
#include <string_view>
#include <vector>

#include "broker/handlers/handlers.h"
#include "broker/handlers/take_denied.h"
#include "broker/services/topic_admin.h"
#include "protocol/messages/create_topics.h"

namespace kgroups::broker::handlers {

namespace {

// Kafka: CREATE on the cluster, else on each topic; a topic named more than once is left to the
// service (INVALID_REQUEST), as Kafka finds duplicates first.
std::vector<protocol::CreateTopicsRequest::Topic> take_uncreatable(
    const RequestContext& ctx, protocol::CreateTopicsRequest& request) {
  if (!ctx.authorizing() || ctx.allowed_on_cluster(AclOperation::kCreate)) return {};
  std::map<std::string_view, int> mentions;
  for (const auto& topic : request.topics) ++mentions[topic.name];
  return take_denied(ctx, request.topics, [&](const auto& topic) {
    return mentions[topic.name] > 1 ||
           ctx.allowed(AclOperation::kCreate, AclResourceType::kTopic, topic.name);
  });
}

// Kafka: a created topic whose configs the client may not DESCRIBE_CONFIGS is answered without
// them, its partition count and replication factor (-1), with topic_config_error_code
// TOPIC_AUTHORIZATION_FAILED.
void hide_undescribable(const RequestContext& ctx, protocol::CreateTopicsResponse& response) {
  if (!ctx.authorizing() || ctx.version() < 5) return;
  for (auto& topic : response.topics) {
    if (topic.error_code != protocol::ErrorCode::kNone ||
        ctx.allowed(AclOperation::kDescribeConfigs, AclResourceType::kTopic, topic.name)) {
      continue;
    }
    topic.topic_config_error_code =
        static_cast<std::int16_t>(protocol::ErrorCode::kTopicAuthorizationFailed);
    topic.num_partitions = -1;
    topic.replication_factor = -1;
    topic.configs = decltype(topic.configs)::value_type{};
  }
}

}  // namespace

asio::awaitable<Reply> handle_create_topics(RequestContext& ctx) {
  auto request = protocol::CreateTopicsRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");
  const auto denied = take_uncreatable(ctx, *request);
  protocol::CreateTopicsResponse response =
      create_topics(ctx.broker.cluster(), ctx.broker.config().max_partitions_per_request, *request);
  hide_undescribable(ctx, response);
  for (const auto& topic : denied) {
    auto& refused = response.topics.emplace_back();
    refused.name = std::string(topic.name);
    refused.error_code = protocol::ErrorCode::kTopicAuthorizationFailed;
    refused.error_message = "Authorization failed.";
    ctx.count_error(refused.error_code);
  }
  response.encode(ctx.response, ctx.version());
  co_return Reply::kSend;
}

}  // namespace kgroups::broker::handlers
