// SPDX-License-Identifier: Apache-2.0
#include "broker/handlers/alter_broker_config.h"

#include <utility>
#include <variant>
#include <vector>

namespace kgroups::broker::handlers {
namespace {

using protocol::ErrorCode;

// The names of `changes` that are not dynamic broker configs, as "[a, b]"; empty when none.
std::string fixed_configs(std::span<const ConfigChange> changes) {
  std::string names;
  for (const ConfigChange& change : changes) {
    if (find_dynamic_broker_config(change.name) != nullptr) continue;
    names += names.empty() ? "[" : ", ";
    names += change.name;
  }
  return names.empty() ? names : names + "]";
}

}  // namespace

BrokerAlterOutcome alter_broker_config(Cluster& cluster, std::int32_t node_id,
                                       std::optional<std::int32_t> broker,
                                       std::span<const ConfigChange> changes, bool incremental,
                                       bool validate_only) {
  if (const std::string fixed = fixed_configs(changes); !fixed.empty()) {
    return {ErrorCode::kInvalidRequest,
            "Cannot update these configs dynamically: " + fixed +
                ". kgroupsd changes at run time only the broker configs that give topics their "
                "defaults (such as log.retention.ms, log.retention.bytes, message.max.bytes, "
                "log.cleanup.policy); the others are set by its command line."};
  }
  DynamicBrokerConfig dynamic = cluster.dynamic_broker_config();
  ConfigChangeResult changed =
      incremental
          ? change_topic_configs(dynamic.values(broker), changes, find_dynamic_broker_config)
          : replace_topic_configs(changes, find_dynamic_broker_config);
  if (auto* refused = std::get_if<ConfigChangeError>(&changed)) {
    return {refused->code, std::move(refused->message)};
  }
  BrokerConfigValues& values = std::get<TopicConfigValues>(changed);
  for (const auto& [name, value] : values) {
    if (auto bad = check_dynamic_broker_config_value(*find_dynamic_broker_config(name), value)) {
      return {ErrorCode::kInvalidConfig, std::move(*bad)};
    }
  }
  dynamic.set_values(broker, std::move(values));

  std::string error;
  const std::optional<TopicConfig> defaults = dynamic.topic_defaults(node_id, error);
  if (!defaults) return {ErrorCode::kInvalidConfig, std::move(error)};
  std::vector<std::pair<StoredTopic*, TopicConfig>> resolved;
  resolved.reserve(cluster.topics().size());
  for (const auto& [name, topic] : cluster.topics()) {
    std::optional<TopicConfig> config = resolve_topic_config(*defaults, topic->set_configs, error);
    if (!config) {
      return {ErrorCode::kInvalidConfig, "Topic '" + name + "' would have contradicting configs: " +
                                             error + " Change the topic's configs first."};
    }
    resolved.emplace_back(topic.get(), *config);
  }
  if (validate_only) return {};
  cluster.set_dynamic_broker_config(std::move(dynamic), *defaults);
  for (auto& [topic, config] : resolved)
    cluster.set_topic_config(*topic, config, topic->set_configs);
  return {};
}

}  // namespace kgroups::broker::handlers
