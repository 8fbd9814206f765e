// SPDX-License-Identifier: Apache-2.0
//
// The catalog of Kafka's topic-level configs: for each its name, type, Kafka's default, the
// broker config that supplies the default (its synonym), the values it accepts and a
// one-line description. CreateTopics, DescribeConfigs, AlterConfigs and
// IncrementalAlterConfigs check names and values here. The broker acts on some of these
// (the fields of TopicConfig); the others are checked, stored and described only.
// Thread-safe: constant data and pure functions.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "broker/config/topic_config.h"

namespace kgroups::broker {

// Kafka's ConfigType numbers as DescribeConfigs v3+ reports them.
enum class ConfigType : std::int8_t {
  kBoolean = 1,
  kString = 2,
  kInt = 3,
  kShort = 4,
  kLong = 5,
  kDouble = 6,
  kList = 7,
};

// How a config's values are checked.
enum class ConfigCheck : std::uint8_t {
  kRange,              // a whole number in [min, max] (within the type's range)
  kRatio,              // a decimal number in [0, 1]
  kTrueOrFalse,        // true or false, any case
  kOneOf,              // one of `allowed` (exact)
  kListOf,             // a comma-separated list of `allowed` entries
  kGzipLevel,          // 1-9, or -1 for the codec's default
  kFormatVersion,      // a Kafka version such as 2.8 or 3.0-IV1
  kThrottledReplicas,  // "*", or partition:broker pairs separated by commas
};

struct TopicConfigDefinition {
  std::string_view name;
  ConfigType type;
  std::string_view default_value;   // Kafka's default, as DescribeConfigs shows it
  std::string_view broker_synonym;  // the broker config that sets the default; empty: none
  ConfigCheck check;
  std::int64_t min = 0;                       // kRange
  std::int64_t max = 0;                       // kRange
  std::span<const std::string_view> allowed;  // kOneOf, kListOf
  std::string_view documentation;             // one line, in our words
};

// Explicitly set configs of a topic, by name (what a request gave, as it gave it).
using TopicConfigValues = std::map<std::string, std::string, std::less<>>;

// Every topic config, ordered by name.
std::span<const TopicConfigDefinition> topic_config_catalog();

// The definition of config `name`, or nullptr when Kafka has no topic config of that name.
const TopicConfigDefinition* find_topic_config(std::string_view name);

// Why `value` is not a valid value of `definition` (a sentence naming the config and what it
// accepts), or nullopt when it is valid.
std::optional<std::string> check_topic_config_value(const TopicConfigDefinition& definition,
                                                    std::string_view value);

// The TopicConfig of a topic whose explicitly set configs are `values`, starting from the
// broker's `defaults`. Every name must be in the catalog and every value valid; otherwise,
// and when the values contradict each other (min.compaction.lag.ms above
// max.compaction.lag.ms) or ask for what this broker cannot do (remote.storage.enable=true),
// returns nullopt and says why in `error`.
std::optional<TopicConfig> resolve_topic_config(const TopicConfig& defaults,
                                                const TopicConfigValues& values,
                                                std::string& error);

// The value a topic without an explicit setting has for `definition`: what the broker's
// `defaults` hold for the configs TopicConfig carries (which the broker's flags may set),
// Kafka's default otherwise.
std::string default_topic_config_value(const TopicConfigDefinition& definition,
                                       const TopicConfig& defaults);

// The entries of list config `value` ("compact, delete" → "compact", "delete"), trimmed,
// empty entries dropped.
std::vector<std::string> split_config_list(std::string_view value);

}  // namespace kgroups::broker
