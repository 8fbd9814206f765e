// SPDX-License-Identifier: Apache-2.0
//
// CreateTopics (key 19): v0-7.
// - v0: creates each topic with num_partitions partitions; -1 (any version; officially v4+)
//   means the broker's default partition count. replication_factor must be 1 or -1 (this is
//   one broker): otherwise INVALID_REPLICATION_FACTOR.
// - v1: validate_only checks without creating; error_message says what was wrong.
// - v2-4: throttle_time_ms (0).
// - v5: flexible; a created (or validated) topic is echoed with its partition count,
//   replication factor 1 and every topic config (see topic_config_catalog.h) with its source:
//   1 for a value the request gave, 4 for a broker flag that differs from Kafka's default,
//   5 for Kafka's default; null configs and -1 counts on error. v6: same layout. v7: the new
//   topic's id (zero with validate_only or on error).
// - Errors per topic: TOPIC_ALREADY_EXISTS, INVALID_TOPIC_EXCEPTION (illegal name),
//   INVALID_PARTITIONS (< 1, or more than --max-partitions-per-topic), POLICY_VIOLATION (past
//   --max-topics or --max-partitions, or past --max-partitions-per-request counted over the
//   request in order), INVALID_REQUEST for a topic named twice in one request (none of those
//   is created), INVALID_REPLICA_ASSIGNMENT for explicit assignments (not implemented),
//   INVALID_CONFIG for a config name Kafka does not define for topics, an invalid or null
//   value, or a name given twice (the message says what is allowed).
// - Configs: every topic config is checked against the catalog and stored as given; the
//   broker acts on those TopicConfig holds (docs/TOPIC-CONFIGS.md).
// - error_message is given for the first kMaxErrorMessages failed topics only, so a request
//   of many bad topics cannot make a response much larger than itself.
// timeout_ms is not needed: creation is immediate.
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "broker/config/described_config.h"
#include "broker/config/topic_config_catalog.h"
#include "broker/handlers/handlers.h"
#include "protocol/messages/create_topics.h"

namespace kgroups::broker::handlers {
namespace {

using protocol::ErrorCode;

constexpr std::size_t kMaxErrorMessages = 64;

// The topic's explicitly set configs and what they resolve to from the broker's defaults;
// nullopt (with `bad` saying why) when a name is not a topic config, a value is invalid or
// null, or a name is given twice.
std::optional<std::pair<TopicConfig, TopicConfigValues>> topic_config(
    const TopicConfig& defaults, const protocol::CreateTopicsRequest::Topic& topic,
    std::string& bad) {
  TopicConfigValues values;
  for (const auto& entry : topic.configs) {
    if (!entry.value) {
      bad = "Null value not supported for topic config '" + std::string(entry.name) + "'.";
      return std::nullopt;
    }
    if (!values.emplace(std::string(entry.name), std::string(*entry.value)).second) {
      bad = "Topic config '" + std::string(entry.name) + "' is given more than once.";
      return std::nullopt;
    }
  }
  std::optional<TopicConfig> config = resolve_topic_config(defaults, values, bad);
  if (!config) return std::nullopt;
  return std::pair{*config, std::move(values)};
}

std::string explain(ErrorCode error, const protocol::CreateTopicsRequest::Topic& topic,
                    const ClusterConfig& limits) {
  const std::string name(topic.name);
  switch (error) {
    case ErrorCode::kTopicAlreadyExists:
      return "Topic '" + name + "' already exists.";
    case ErrorCode::kInvalidTopicException:
      return "Topic name '" + name +
             "' is illegal: use 1-249 characters of ASCII letters, digits, '.', '_' and '-'.";
    case ErrorCode::kInvalidPartitions:
      return "Number of partitions must be 1 to " +
             std::to_string(limits.max_partitions_per_topic) +
             " (--max-partitions-per-topic), or -1 for the broker default; got " +
             std::to_string(topic.num_partitions) + ".";
    case ErrorCode::kPolicyViolation:
      return "Creating topic '" + name + "' would exceed --max-topics " +
             std::to_string(limits.max_topics) + ", --max-partitions " +
             std::to_string(limits.max_partitions) +
             " or the partitions one request may create (--max-partitions-per-request).";
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

// The v5+ echo of a topic that passed: partition count, replication factor and every topic
// config with its value and source.
void describe_created(protocol::CreateTopicsResponse::Topic& out, std::int32_t partitions,
                      const TopicConfigValues& values, const TopicConfig& defaults) {
  out.num_partitions = partitions;
  out.replication_factor = 1;
  auto& configs = out.configs.emplace();
  for (DescribedConfig& described : describe_topic_configs(values, defaults)) {
    auto& entry = configs.emplace_back();
    entry.name = std::string(described.name);
    entry.value = std::move(described.value);
    entry.read_only = described.read_only;
    entry.config_source = static_cast<std::int8_t>(described.source);
  }
}

}  // namespace

asio::awaitable<Reply> handle_create_topics(RequestContext& ctx) {
  const auto request = protocol::CreateTopicsRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");

  Cluster& cluster = ctx.broker.cluster();
  std::map<std::string_view, int> mentions;
  for (const auto& topic : request->topics) ++mentions[topic.name];

  const std::int64_t per_request = ctx.broker.config().max_partitions_per_request;
  std::int64_t requested = 0;  // partitions of the topics so far that passed the checks
  std::size_t messages = 0;
  protocol::CreateTopicsResponse response;
  for (const auto& topic : request->topics) {
    const std::int32_t partitions =
        topic.num_partitions == -1 ? cluster.default_partitions() : topic.num_partitions;
    std::string bad_config;
    const auto config = topic_config(cluster.config().topic_defaults, topic, bad_config);
    ErrorCode error = ErrorCode::kNone;
    if (mentions[topic.name] > 1) {
      error = ErrorCode::kInvalidRequest;
    } else if (!topic.assignments.empty()) {
      error = ErrorCode::kInvalidReplicaAssignment;
    } else if (topic.replication_factor != 1 && topic.replication_factor != -1) {
      error = ErrorCode::kInvalidReplicationFactor;
    } else if (!config) {
      error = ErrorCode::kInvalidConfig;
    } else {
      error = cluster.check_new_topic(topic.name, partitions);
      if (error == ErrorCode::kNone && requested + partitions > per_request) {
        error = ErrorCode::kPolicyViolation;
      }
      if (error == ErrorCode::kNone) {
        requested += partitions;
        if (!request->validate_only) {
          error = cluster.create_topic(topic.name, partitions, config->first);
          if (StoredTopic* created = cluster.find_topic(topic.name); error == ErrorCode::kNone) {
            cluster.set_topic_config(*created, config->first, config->second);
          }
        }
      }
    }
    auto& out = response.topics.emplace_back();
    out.name = std::string(topic.name);
    out.error_code = error;
    if (error == ErrorCode::kNone) {
      describe_created(out, partitions, config->second, cluster.config().topic_defaults);
      if (const StoredTopic* created = cluster.find_topic(topic.name);
          created && !request->validate_only) {
        out.topic_id = created->id;
      }
    }
    if (error != ErrorCode::kNone && messages++ < kMaxErrorMessages) {
      out.error_message =
          error == ErrorCode::kInvalidConfig ? bad_config : explain(error, topic, cluster.config());
    }
  }
  response.encode(ctx.response, ctx.version());
  co_return Reply::kSend;
}

}  // namespace kgroups::broker::handlers
