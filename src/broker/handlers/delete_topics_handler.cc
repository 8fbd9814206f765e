// SPDX-License-Identifier: Apache-2.0
//
// DeleteTopics (key 20): v0-6.
// - v0: deletes each named topic with its records, its memory and every group's committed
//   offsets of it; fetches long-polling it wake and answer UNKNOWN_TOPIC_OR_PARTITION, groups
//   see the change (KIP-848 groups at their next heartbeat, classic ones when their leader
//   reads Metadata). A topic created again later gets a new id and starts at offset 0.
//   UNKNOWN_TOPIC_OR_PARTITION for a topic that does not exist.
// - v1-3: throttle_time_ms (0). v4: flexible.
// - v5: error_message on errors.
// - v6: topics named by name or by id (the response gives both): UNKNOWN_TOPIC_ID for an
//   unknown id, INVALID_REQUEST for an entry with both or neither.
// timeout_ms is not needed: deletion is immediate. A name given twice is deleted once; the
// second mention gets UNKNOWN_TOPIC_OR_PARTITION.
#include <optional>
#include <string>

#include "broker/handlers/handlers.h"
#include "broker/runtime/logger.h"
#include "protocol/messages/delete_topics.h"

namespace kgroups::broker::handlers {
namespace {

using protocol::ErrorCode;

constexpr std::int16_t kFirstTopicIdVersion = 6;
constexpr std::size_t kMaxErrorMessages = 64;

struct Outcome {
  ErrorCode error = ErrorCode::kNone;
  std::string message;
};

// Deletes the topic called `name`; fills in its id when the response carries one.
Outcome delete_by_name(Broker& broker, std::string_view name, protocol::Uuid& id,
                       std::string_view peer) {
  const StoredTopic* topic = broker.cluster().find_topic(name);
  if (topic == nullptr) {
    return {ErrorCode::kUnknownTopicOrPartition,
            "Topic '" + std::string(name) + "' does not exist."};
  }
  id = topic->id;
  broker.delete_topic(name);
  log_info(std::string(peer) + " deleted topic " + quote(name));
  return {};
}

// Kafka's authorization of deleting one topic: DELETE on the cluster, else on the topic.
struct DeleteAccess {
  bool deletable = true;
  bool describable = true;  // only asked when not deletable (DELETE implies DESCRIBE)
};

DeleteAccess delete_access(const RequestContext& ctx, bool cluster_delete, std::string_view name) {
  if (cluster_delete) return {};
  if (ctx.allowed(AclOperation::kDelete, AclResourceType::kTopic, name)) return {};
  return {.deletable = false,
          .describable = ctx.allowed(AclOperation::kDescribe, AclResourceType::kTopic, name)};
}

Outcome denied() { return {ErrorCode::kTopicAuthorizationFailed, "Topic authorization failed."}; }

}  // namespace

asio::awaitable<Reply> handle_delete_topics(RequestContext& ctx) {
  const auto request = protocol::DeleteTopicsRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");
  const bool by_state = ctx.version() >= kFirstTopicIdVersion;
  const bool cluster_delete = ctx.allowed_on_cluster(AclOperation::kDelete);
  // By name: a topic the client may not delete answers TOPIC_AUTHORIZATION_FAILED, unless it may
  // describe it and it does not exist (UNKNOWN_TOPIC_OR_PARTITION then).
  const auto delete_named = [&](std::string_view name, protocol::Uuid& id) {
    const DeleteAccess access = delete_access(ctx, cluster_delete, name);
    if (!access.deletable &&
        (!access.describable || ctx.broker.cluster().find_topic(name) != nullptr)) {
      return denied();
    }
    return delete_by_name(ctx.broker, name, id, ctx.peer);
  };
  protocol::DeleteTopicsResponse response;
  std::size_t messages = 0;
  const auto answer = [&](std::optional<std::string> name, protocol::Uuid id,
                          const Outcome& outcome) {
    auto& out = response.responses.emplace_back();
    out.name = std::move(name);
    out.topic_id = id;
    out.error_code = outcome.error;
    if (outcome.error != ErrorCode::kNone && messages++ < kMaxErrorMessages) {
      out.error_message = outcome.message;
    }
  };
  if (!by_state) {
    for (const std::string_view name : request->topic_names) {
      protocol::Uuid id{};
      answer(std::string(name), id, delete_named(name, id));
    }
  }
  for (const auto& topic : by_state ? request->topics : decltype(request->topics){}) {
    const bool has_id = topic.topic_id != protocol::Uuid{};
    if (topic.name.has_value() == has_id) {
      answer(topic.name ? std::optional<std::string>(*topic.name) : std::nullopt, topic.topic_id,
             {ErrorCode::kInvalidRequest, has_id ? "Give a topic's name or its id, not both."
                                                 : "Give a topic's name or its id."});
      continue;
    }
    if (topic.name) {
      protocol::Uuid id{};
      answer(std::string(*topic.name), id, delete_named(*topic.name, id));
      continue;
    }
    const StoredTopic* found = ctx.broker.cluster().find_topic(topic.topic_id);
    if (found == nullptr) {
      answer(std::nullopt, topic.topic_id,
             {ErrorCode::kUnknownTopicId, "No topic has the id given."});
      continue;
    }
    const std::string name = found->name;
    // By id: the name only when the client may describe the topic.
    if (const DeleteAccess access = delete_access(ctx, cluster_delete, name); !access.deletable) {
      answer(access.describable ? std::optional<std::string>(name) : std::nullopt, topic.topic_id,
             denied());
      continue;
    }
    protocol::Uuid id{};
    answer(name, topic.topic_id, delete_by_name(ctx.broker, name, id, ctx.peer));
  }
  response.encode(ctx.response, ctx.version());
  co_return Reply::kSend;
}

}  // namespace kgroups::broker::handlers
