// SPDX-License-Identifier: Apache-2.0
//
// Changes to a topic's explicitly set configs, as AlterConfigs (replace them all) and
// IncrementalAlterConfigs (set, delete, append to or subtract from single configs) ask for
// them. Each function either gives the complete new set or says why not, with Kafka's error
// code and a message; it never changes the topic itself (the caller resolves the new set
// with resolve_topic_config() and stores it), so a resource's changes apply all or nothing.
// Thread-safe: pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>

#include "broker/config/topic_config_catalog.h"
#include "protocol/error_code.h"

namespace kgroups::broker {

// IncrementalAlterConfigs' operations (Kafka's AlterConfigOp.OpType).
enum class ConfigOperation : std::int8_t { kSet = 0, kDelete = 1, kAppend = 2, kSubtract = 3 };

struct ConfigChange {
  std::string_view name;
  std::int8_t operation = 0;  // a ConfigOperation, as the request gave it
  std::optional<std::string_view> value;
};

struct ConfigChangeError {
  protocol::ErrorCode code = protocol::ErrorCode::kNone;
  std::string message;
};

// The outcome: the topic's complete new set of explicitly set configs, or why not.
using ConfigChangeResult = std::variant<TopicConfigValues, ConfigChangeError>;

// Which names the changes accept, and the definition (type, default) each stands for: topic
// configs by default; dynamic_broker_config.h's find_dynamic_broker_config() for the broker
// configs that set topic defaults.
using ConfigLookup = const TopicConfigDefinition* (*)(std::string_view name);

// AlterConfigs: `changes` (operation ignored) become the whole set; names left out go back
// to their defaults. INVALID_REQUEST for a name given twice or a null value; INVALID_CONFIG
// for a name that `find` does not know.
ConfigChangeResult replace_topic_configs(std::span<const ConfigChange> changes,
                                         ConfigLookup find = find_topic_config);

// IncrementalAlterConfigs: applies `changes` in order to `current`. INVALID_REQUEST for a name
// given twice, an unknown operation, or a null value with set, append or subtract;
// INVALID_CONFIG for a name that `find` does not know, or append/subtract on a config that
// is not a list. Append adds the entries not yet present to the current value (its default
// when unset); subtract removes entries.
ConfigChangeResult change_topic_configs(const TopicConfigValues& current,
                                        std::span<const ConfigChange> changes,
                                        ConfigLookup find = find_topic_config);

}  // namespace kgroups::broker
