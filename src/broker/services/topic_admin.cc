// SPDX-License-Identifier: Apache-2.0
#include "broker/services/topic_admin.h"

#include <map>
#include <optional>
#include <string>
#include <utility>

#include "broker/config/described_config.h"
#include "broker/config/topic_config_catalog.h"

namespace kgroups::broker {
namespace {

using protocol::ErrorCode;

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
    case ErrorCode::kInvalidReplicaAssignment:
      return "The replica assignment must name partitions 0 to N-1 once each, every one with "
             "the same number of distinct brokers among node ids 0 to " +
             std::to_string(limits.brokers - 1) + ".";
    case ErrorCode::kInvalidRequest:
      return "Topic '" + name + "' appears more than once in the request.";
    default:
      return std::string(protocol::error_name(error));
  }
}

// The v5+ echo of a topic that passed: partition count, replication factor and every topic
// config with its value and source.
void describe_created(protocol::CreateTopicsResponse::Topic& out, std::int32_t partitions,
                      std::int32_t replication_factor, const TopicConfigValues& values,
                      const TopicConfig& defaults) {
  out.num_partitions = partitions;
  out.replication_factor = static_cast<std::int16_t>(replication_factor);
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

protocol::CreateTopicsResponse create_topics(Cluster& cluster,
                                             std::int64_t max_partitions_per_request,
                                             const protocol::CreateTopicsRequest& request) {
  std::map<std::string_view, int> mentions;
  for (const auto& topic : request.topics) ++mentions[topic.name];

  std::int64_t requested = 0;  // partitions of the topics so far that passed the checks
  std::size_t messages = 0;
  protocol::CreateTopicsResponse response;
  for (const auto& topic : request.topics) {
    const bool manual = !topic.assignments.empty();
    const std::int32_t partitions =
        manual ? static_cast<std::int32_t>(topic.assignments.size())
               : (topic.num_partitions == -1 ? cluster.default_partitions() : topic.num_partitions);
    TopicReplication replication;
    bool assignment_in_order = true;
    if (manual) {
      replication.assignment.resize(topic.assignments.size());
      for (const auto& assigned : topic.assignments) {
        if (assigned.partition_index < 0 || assigned.partition_index >= partitions ||
            !replication.assignment[static_cast<std::size_t>(assigned.partition_index)].empty()) {
          assignment_in_order = false;
          break;
        }
        replication.assignment[static_cast<std::size_t>(assigned.partition_index)] =
            assigned.broker_ids;
      }
    } else {
      replication.replication_factor = topic.replication_factor;
    }
    std::string replication_reason;
    std::string bad_config;
    const auto config = topic_config(cluster.config().topic_defaults, topic, bad_config);
    ErrorCode error = ErrorCode::kNone;
    if (mentions[topic.name] > 1) {
      error = ErrorCode::kInvalidRequest;
    } else if (manual && (topic.num_partitions != -1 || topic.replication_factor != -1)) {
      // Kafka: a manual assignment comes with both counts -1.
      error = ErrorCode::kInvalidRequest;
      replication_reason =
          "Give either num_partitions and replication_factor or a replica assignment, with "
          "both counts -1.";
    } else if (!assignment_in_order) {
      error = ErrorCode::kInvalidReplicaAssignment;
    } else if ((error = cluster.check_replication(partitions, replication, replication_reason)) !=
               ErrorCode::kNone) {
    } else if (!config) {
      error = ErrorCode::kInvalidConfig;
    } else {
      error = cluster.check_new_topic(topic.name, partitions);
      if (error == ErrorCode::kNone && requested + partitions > max_partitions_per_request) {
        error = ErrorCode::kPolicyViolation;
      }
      if (error == ErrorCode::kNone) {
        requested += partitions;
        if (!request.validate_only) {
          error = cluster.create_topic(topic.name, partitions, config->first, replication);
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
      const std::int32_t factor =
          manual ? static_cast<std::int32_t>(replication.assignment.front().size())
                 : (topic.replication_factor == -1 ? cluster.config().default_replication_factor
                                                   : topic.replication_factor);
      describe_created(out, partitions, factor, config->second, cluster.config().topic_defaults);
      if (const StoredTopic* created = cluster.find_topic(topic.name);
          created && !request.validate_only) {
        out.topic_id = created->id;
      }
    }
    if (error != ErrorCode::kNone && messages++ < kMaxErrorMessages) {
      out.error_message = error == ErrorCode::kInvalidConfig ? bad_config
                          : !replication_reason.empty()      ? replication_reason
                                                        : explain(error, topic, cluster.config());
    }
  }
  return response;
}

}  // namespace kgroups::broker
