// SPDX-License-Identifier: Apache-2.0
#include "broker/config/dynamic_broker_config.h"

#include <algorithm>
#include <utility>

namespace kgroups::broker {
namespace {

// Kafka keeps log.message.format.version out of its dynamic log configs.
constexpr std::string_view kNotDynamic = "log.message.format.version";

const BrokerConfigValues kNone;

}  // namespace

const TopicConfigDefinition* find_dynamic_broker_config(std::string_view name) {
  if (name.empty() || name == kNotDynamic) return nullptr;
  const auto catalog = topic_config_catalog();
  const auto it = std::ranges::find(catalog, name, &TopicConfigDefinition::broker_synonym);
  return it != catalog.end() ? &*it : nullptr;
}

std::optional<std::string> check_dynamic_broker_config_value(
    const TopicConfigDefinition& definition, std::string_view value) {
  TopicConfigDefinition as_broker_config = definition;
  as_broker_config.name = definition.broker_synonym;
  return check_topic_config_value(as_broker_config, value);
}

const BrokerConfigValues& DynamicBrokerConfig::values(std::optional<std::int32_t> broker) const {
  if (!broker) return cluster_wide_;
  const auto it = per_broker_.find(*broker);
  return it != per_broker_.end() ? it->second : kNone;
}

void DynamicBrokerConfig::set_values(std::optional<std::int32_t> broker,
                                     BrokerConfigValues values) {
  if (!broker) {
    cluster_wide_ = std::move(values);
  } else if (values.empty()) {
    per_broker_.erase(*broker);
  } else {
    per_broker_[*broker] = std::move(values);
  }
}

const std::string* DynamicBrokerConfig::find(std::optional<std::int32_t> broker,
                                             std::string_view name) const {
  const BrokerConfigValues& set = values(broker);
  const auto it = set.find(name);
  return it != set.end() ? &it->second : nullptr;
}

std::optional<TopicConfig> DynamicBrokerConfig::topic_defaults(std::int32_t broker,
                                                               std::string& error) const {
  // Under topic config names: the broker's own values replace the cluster-wide ones.
  TopicConfigValues as_topic_configs;
  for (const BrokerConfigValues* set : {&cluster_wide_, &values(broker)}) {
    for (const auto& [name, value] : *set) {
      if (const TopicConfigDefinition* definition = find_dynamic_broker_config(name)) {
        as_topic_configs.insert_or_assign(std::string(definition->name), value);
      }
    }
  }
  return resolve_topic_config(static_defaults_, as_topic_configs, error);
}

}  // namespace kgroups::broker
