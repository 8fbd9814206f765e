// SPDX-License-Identifier: Apache-2.0
//
// DescribedConfig: one config as DescribeConfigs (and CreateTopics v5+) reports it: its
// value, where the value comes from (Kafka's ConfigSource), whether it can be changed, its
// type, documentation and synonyms (the settings that would give it a value, strongest
// first). describe_topic_configs() lists a topic's configs; describe_broker_configs() this
// broker's, which come from its command line, the ones that set topic defaults changeable at
// run time (dynamic_broker_config.h); describe_default_broker_configs() the cluster-wide
// dynamic ones.
// Thread-safe: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "broker/config/broker_config.h"
#include "broker/config/dynamic_broker_config.h"
#include "broker/config/topic_config.h"
#include "broker/config/topic_config_catalog.h"

namespace kgroups::broker {

// Kafka's ConfigSource numbers (DescribeConfigs v1+).
enum class ConfigSource : std::int8_t {
  kTopic = 1,                 // DYNAMIC_TOPIC_CONFIG: set on the topic
  kDynamicBroker = 2,         // DYNAMIC_BROKER_CONFIG: set at run time for this broker
  kDynamicDefaultBroker = 3,  // DYNAMIC_DEFAULT_BROKER_CONFIG: set at run time cluster-wide
  kStaticBroker = 4,          // STATIC_BROKER_CONFIG: the broker's command line differs from Kafka
  kDefault = 5,               // DEFAULT_CONFIG: Kafka's default
  kGroup = 8,                 // GROUP_CONFIG: set on the group
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

// The same on broker `broker` whose topic defaults are `dynamic`'s: a default set at run time
// has source kDynamicBroker (for this broker) or kDynamicDefaultBroker (cluster-wide), and the
// synonyms list, strongest first, the topic's value, the broker's dynamic value, the
// cluster-wide one, the broker's flag and Kafka's default, as far as each applies.
std::vector<DescribedConfig> describe_topic_configs(const TopicConfigValues& values,
                                                    const DynamicBrokerConfig& dynamic,
                                                    std::int32_t broker);

// The broker configs this broker (config.node_id) reports, ordered by name: its command-line
// settings, read-only, kStaticBroker where the value differs from Kafka's default; and every
// dynamic broker config (find_dynamic_broker_config()), writable, with its value and source
// as describe_topic_configs() gives them (without the topic's own value).
std::vector<DescribedConfig> describe_broker_configs(const BrokerConfig& config,
                                                     const DynamicBrokerConfig& dynamic);

// The dynamic broker configs set cluster-wide, ordered by name, each with source
// kDynamicDefaultBroker (Kafka's answer for the broker resource named "").
std::vector<DescribedConfig> describe_default_broker_configs(const DynamicBrokerConfig& dynamic);

}  // namespace kgroups::broker
