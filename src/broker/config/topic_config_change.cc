// SPDX-License-Identifier: Apache-2.0
#include "broker/config/topic_config_change.h"

#include <algorithm>
#include <set>
#include <vector>

namespace kgroups::broker {
namespace {

using protocol::ErrorCode;

ConfigChangeError invalid_request(std::string message) {
  return {ErrorCode::kInvalidRequest, std::move(message)};
}

ConfigChangeError unknown_config(std::string_view name) {
  return {ErrorCode::kInvalidConfig, "Unknown topic config name: '" + std::string(name) + "'."};
}

// The first name given twice in `changes`, if any.
std::optional<std::string_view> duplicate_name(std::span<const ConfigChange> changes) {
  std::set<std::string_view> seen;
  for (const ConfigChange& change : changes) {
    if (!seen.insert(change.name).second) return change.name;
  }
  return std::nullopt;
}

std::string join(const std::vector<std::string>& entries) {
  std::string out;
  for (const std::string& entry : entries) {
    if (!out.empty()) out += ',';
    out += entry;
  }
  return out;
}

}  // namespace

ConfigChangeResult replace_topic_configs(std::span<const ConfigChange> changes, ConfigLookup find) {
  if (const auto name = duplicate_name(changes)) {
    return invalid_request("Config '" + std::string(*name) + "' is given more than once.");
  }
  TopicConfigValues values;
  for (const ConfigChange& change : changes) {
    if (!change.value) {
      return invalid_request("Null value not supported for config '" + std::string(change.name) +
                             "'.");
    }
    if (find(change.name) == nullptr) return unknown_config(change.name);
    values.emplace(std::string(change.name), std::string(*change.value));
  }
  return values;
}

ConfigChangeResult change_topic_configs(const TopicConfigValues& current,
                                        std::span<const ConfigChange> changes, ConfigLookup find) {
  if (const auto name = duplicate_name(changes)) {
    return invalid_request("Config '" + std::string(*name) + "' is given more than once.");
  }
  TopicConfigValues values = current;
  for (const ConfigChange& change : changes) {
    if (change.operation < 0 || change.operation > 3) {
      return invalid_request("Unknown config operation " + std::to_string(change.operation) +
                             " for '" + std::string(change.name) +
                             "': use 0 (set), 1 (delete), 2 (append) or 3 (subtract).");
    }
    const auto operation = static_cast<ConfigOperation>(change.operation);
    if (operation != ConfigOperation::kDelete && !change.value) {
      return invalid_request("Null value not supported for config '" + std::string(change.name) +
                             "'.");
    }
    const TopicConfigDefinition* definition = find(change.name);
    if (definition == nullptr) return unknown_config(change.name);
    const std::string name(change.name);
    switch (operation) {
      case ConfigOperation::kSet:
        values.insert_or_assign(name, std::string(*change.value));
        break;
      case ConfigOperation::kDelete:
        values.erase(name);
        break;
      case ConfigOperation::kAppend:
      case ConfigOperation::kSubtract: {
        if (definition->type != ConfigType::kList) {
          return ConfigChangeError{
              ErrorCode::kInvalidConfig,
              std::string(operation == ConfigOperation::kAppend ? "Append" : "Subtract") +
                  " applies to list configs only; '" + name + "' is not a list."};
        }
        const auto set = values.find(name);
        std::vector<std::string> entries = split_config_list(
            set != values.end() ? std::string_view(set->second) : definition->default_value);
        for (const std::string& entry : split_config_list(*change.value)) {
          const bool present = std::ranges::find(entries, entry) != entries.end();
          if (operation == ConfigOperation::kAppend && !present) entries.push_back(entry);
          if (operation == ConfigOperation::kSubtract) std::erase(entries, entry);
        }
        values.insert_or_assign(name, join(entries));
        break;
      }
    }
  }
  return values;
}

}  // namespace kgroups::broker
