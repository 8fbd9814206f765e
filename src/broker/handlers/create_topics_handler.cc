// SPDX-License-Identifier: Apache-2.0
//
// CreateTopics (key 19): v0-7.
// - v0: creates each topic with num_partitions partitions; -1 (any version; officially v4+)
//   means the broker's default partition count. replication_factor must be 1 or -1 (this is
//   one broker): otherwise INVALID_REPLICATION_FACTOR.
// - v1: validate_only checks without creating; error_message says what was wrong.
// - v2-4: throttle_time_ms (0).
// - v5: flexible; a created (or validated) topic is echoed with its partition count,
//   replication factor 1 and its configs (retention.ms and retention.bytes, with their
//   source: 1 for a value the request gave, 5 for the broker's default); null configs and
//   -1 counts on error. v6: same layout. v7: the new topic's id (zero with validate_only or
//   on error).
// - Errors per topic: TOPIC_ALREADY_EXISTS, INVALID_TOPIC_EXCEPTION (illegal name),
//   INVALID_PARTITIONS (< 1, or more than --max-partitions-per-topic), POLICY_VIOLATION (past
//   --max-topics or --max-partitions, or past --max-partitions-per-request counted over the
//   request in order), INVALID_REQUEST for a topic named twice in one request (none of those
//   is created), INVALID_REPLICA_ASSIGNMENT for explicit assignments (not implemented),
//   INVALID_CONFIG for a retention.ms or retention.bytes that is not a number >= -1.
// - Configs: retention.ms and retention.bytes are applied (the broker's defaults otherwise);
//   other names are accepted and ignored.
// - error_message is given for the first kMaxErrorMessages failed topics only, so a request
//   of many bad topics cannot make a response much larger than itself.
// timeout_ms is not needed: creation is immediate.
#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "broker/handlers/handlers.h"
#include "protocol/messages/create_topics.h"

namespace kgroups::broker::handlers {
namespace {

using protocol::ErrorCode;

constexpr std::size_t kMaxErrorMessages = 64;

// A config value that must be an integer >= -1 (retention.ms, retention.bytes).
std::optional<std::int64_t> parse_limit(std::optional<std::string_view> text) {
  if (!text) return std::nullopt;
  std::int64_t value = 0;
  const char* end = text->data() + text->size();
  const auto [parsed_end, error] = std::from_chars(text->data(), end, value);
  if (error != std::errc() || parsed_end != end || value < -1) return std::nullopt;
  return value;
}

// The topic's config from the broker's defaults and the request's entries; nullopt (with
// `bad` naming the entry) when a value is invalid.
std::optional<TopicConfig> topic_config(const TopicConfig& defaults,
                                        const protocol::CreateTopicsRequest::Topic& topic,
                                        std::string& bad) {
  TopicConfig config = defaults;
  for (const auto& entry : topic.configs) {
    // Compaction's configs, until the topic-config parsing lands.
    if (entry.name == "cleanup.policy" && entry.value) {
      config.cleanup_compact = entry.value->find("compact") != std::string_view::npos;
      config.cleanup_delete = entry.value->find("delete") != std::string_view::npos;
      continue;
    }
    if (entry.name == "min.cleanable.dirty.ratio" && entry.value) {
      config.min_cleanable_dirty_ratio = std::strtod(std::string(*entry.value).c_str(), nullptr);
      continue;
    }
    if (entry.name == "segment.bytes" && entry.value) {
      if (const auto value = parse_limit(entry.value); value && *value > 0) {
        config.segment_bytes = static_cast<std::int32_t>(std::min<std::int64_t>(*value, 1 << 30));
      }
      continue;
    }
    std::int64_t* field = entry.name == "retention.ms"            ? &config.retention_ms
                          : entry.name == "retention.bytes"       ? &config.retention_bytes
                          : entry.name == "segment.ms"            ? &config.segment_ms
                          : entry.name == "delete.retention.ms"   ? &config.delete_retention_ms
                          : entry.name == "min.compaction.lag.ms" ? &config.min_compaction_lag_ms
                          : entry.name == "max.compaction.lag.ms" ? &config.max_compaction_lag_ms
                                                                  : nullptr;
    if (field == nullptr) continue;
    const std::optional<std::int64_t> value = parse_limit(entry.value);
    if (!value) {
      bad = "Invalid value " + std::string(entry.value.value_or("null")) + " for configuration " +
            std::string(entry.name) + ": it must be a whole number >= -1.";
      return std::nullopt;
    }
    *field = *value;
  }
  return config;
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

// Kafka's ConfigSource numbers for what CreateTopics v5+ reports.
constexpr std::int8_t kTopicConfigSource = 1;    // DYNAMIC_TOPIC_CONFIG: the request's value
constexpr std::int8_t kDefaultConfigSource = 5;  // DEFAULT_CONFIG: the broker's default

bool request_names(const protocol::CreateTopicsRequest::Topic& topic, std::string_view name) {
  for (const auto& entry : topic.configs) {
    if (entry.name == name) return true;
  }
  return false;
}

// The v5+ echo of a topic that passed: partition count, replication factor and configs.
void describe_created(protocol::CreateTopicsResponse::Topic& out,
                      const protocol::CreateTopicsRequest::Topic& topic, std::int32_t partitions,
                      const TopicConfig& config) {
  out.num_partitions = partitions;
  out.replication_factor = 1;
  auto& configs = out.configs.emplace();
  for (const auto& [name, value] :
       {std::pair<std::string_view, std::int64_t>{"retention.bytes", config.retention_bytes},
        std::pair<std::string_view, std::int64_t>{"retention.ms", config.retention_ms}}) {
    auto& entry = configs.emplace_back();
    entry.name = std::string(name);
    entry.value = std::to_string(value);
    entry.config_source = request_names(topic, name) ? kTopicConfigSource : kDefaultConfigSource;
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
    const std::optional<TopicConfig> config =
        topic_config(cluster.config().topic_defaults, topic, bad_config);
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
        if (!request->validate_only) error = cluster.create_topic(topic.name, partitions, config);
      }
    }
    auto& out = response.topics.emplace_back();
    out.name = std::string(topic.name);
    out.error_code = error;
    if (error == ErrorCode::kNone) {
      describe_created(out, topic, partitions, *config);
      if (const Topic* created = cluster.find_topic(topic.name);
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
