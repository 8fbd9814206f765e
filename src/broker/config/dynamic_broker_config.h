// SPDX-License-Identifier: Apache-2.0
//
// DynamicBrokerConfig: the broker configs changed at run time by AlterConfigs and
// IncrementalAlterConfigs on a broker resource, cluster-wide (the resource named "") and per
// broker (named by its node id), as Kafka's dynamic broker configs. kgroupsd can change at
// run time the broker configs that give topics their defaults (the broker synonyms of
// topic_config_catalog.h: log.retention.ms, message.max.bytes, log.cleanup.policy, ...), as
// Kafka's dynamic log configs; every other broker config is fixed by the command line. A
// topic's default is its broker's own value, else the cluster-wide one, else the flag.
// Not thread-safe: used on the broker's network thread.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "broker/config/topic_config.h"
#include "broker/config/topic_config_catalog.h"

namespace kgroups::broker {

// Dynamic broker configs by broker config name (log.retention.ms), as the request gave them.
using BrokerConfigValues = std::map<std::string, std::string, std::less<>>;

// The topic config whose default broker config `name` is, when kgroupsd can change `name` at
// run time; nullptr otherwise (not a broker config, or one fixed by the command line).
const TopicConfigDefinition* find_dynamic_broker_config(std::string_view name);

// Why `value` is not a valid value of the dynamic broker config that sets `definition`'s
// default (a sentence naming the broker config and what it accepts), or nullopt when valid.
std::optional<std::string> check_dynamic_broker_config_value(
    const TopicConfigDefinition& definition, std::string_view value);

class DynamicBrokerConfig {
 public:
  // `static_defaults`: the topic defaults the broker's flags give.
  explicit DynamicBrokerConfig(const TopicConfig& static_defaults = {})
      : static_defaults_(static_defaults) {}

  [[nodiscard]] const TopicConfig& static_defaults() const { return static_defaults_; }

  // The values set cluster-wide (`broker` nullopt) or for broker `broker`; empty when none.
  [[nodiscard]] const BrokerConfigValues& values(std::optional<std::int32_t> broker) const;

  // Replaces the values set cluster-wide (`broker` nullopt) or for broker `broker`. Every name
  // must be a dynamic broker config and every value valid (the caller checks).
  void set_values(std::optional<std::int32_t> broker, BrokerConfigValues values);

  // The value of dynamic broker config `name` set for broker `broker` (cluster-wide with
  // `broker` nullopt), or nullptr when none is set there.
  [[nodiscard]] const std::string* find(std::optional<std::int32_t> broker,
                                        std::string_view name) const;

  // The topic defaults on broker `broker`: the static defaults with the cluster-wide values
  // applied, then the broker's own. nullopt, saying why in `error`, when they contradict each
  // other (as resolve_topic_config() checks).
  [[nodiscard]] std::optional<TopicConfig> topic_defaults(std::int32_t broker,
                                                          std::string& error) const;

 private:
  TopicConfig static_defaults_;
  BrokerConfigValues cluster_wide_;
  std::map<std::int32_t, BrokerConfigValues> per_broker_;
};

}  // namespace kgroups::broker
