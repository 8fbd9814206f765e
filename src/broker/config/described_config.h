// SPDX-License-Identifier: Apache-2.0
//
// DescribedConfig: one config as DescribeConfigs (and CreateTopics v5+) reports it: its
// value, where the value comes from (Kafka's ConfigSource), whether it can be changed, its
// type, documentation and synonyms (the settings that would give it a value, strongest
// first). describe_topic_configs() lists a topic's configs; describe_broker_configs() this
// broker's, which come from its command line and cannot be changed at run time.
// Thread-safe: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "broker/config/broker_config.h"
#include "broker/config/topic_config.h"
#include "broker/config/topic_config_catalog.h"

namespace kgroups::broker {

// Kafka's ConfigSource numbers (DescribeConfigs v1+).
enum class ConfigSource : std::int8_t {
  kTopic = 1,         // DYNAMIC_TOPIC_CONFIG: set on the topic
  kStaticBroker = 4,  // STATIC_BROKER_CONFIG: the broker's command line differs from Kafka
  kDefault = 5,       // DEFAULT_CONFIG: Kafka's default
};

struct ConfigSynonym {
  std::string_view name;
  std::string value;
  ConfigSource source = ConfigSource::kDefault;
};

struct DescribedConfig {
  std::string_view name;
  std::string value;
  ConfigSource source = ConfigSource::kDefault;  // the first synonym's
  bool read_only = false;
  ConfigType type = ConfigType::kString;
  std::string_view documentation;
  std::vector<ConfigSynonym> synonyms;  // strongest first; the first gives the value
};

// Every topic config of a topic whose explicitly set configs are `values`, on a broker whose
// topic defaults are `defaults`, ordered by name. A set value has source kTopic; otherwise
// the broker's default (kStaticBroker where the broker's flag differs from Kafka's default)
// or Kafka's (kDefault). Synonyms: the topic's value, the broker's flag, Kafka's default, as
// far as each applies.
std::vector<DescribedConfig> describe_topic_configs(const TopicConfigValues& values,
                                                    const TopicConfig& defaults);

// The broker configs this broker reports, from its command line, ordered by name; all
// read-only, kStaticBroker where the value differs from Kafka's default.
std::vector<DescribedConfig> describe_broker_configs(const BrokerConfig& config);

}  // namespace kgroups::broker
