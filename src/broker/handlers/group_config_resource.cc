// SPDX-License-Identifier: Apache-2.0
#include "broker/handlers/group_config_resource.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <optional>
#include <set>
#include <string>
#include <utility>

namespace kgroups::broker::handlers {
namespace {

using protocol::ErrorCode;

// One share group config: its name, the broker config it defaults to, Kafka's default, and
// how it reads and writes ShareGroupSettings.
struct GroupConfigDefinition {
  std::string_view name;
  std::string_view broker_name;
  std::string_view kafka_default;
  ConfigType type;
  std::uint8_t own_bit;
  std::int64_t min;  // for whole numbers
  std::int64_t max;
  std::string_view documentation;
};

// Kafka bounds the session timeout and heartbeat interval by the broker's
// group.share.{min,max}.* configs; kgroupsd has no such flags and uses their defaults, widened
// to include the broker's own value (bounds_for()).
constexpr std::array<GroupConfigDefinition, 6> kGroupConfigs{{
    {"share.auto.offset.reset", "", "latest", ConfigType::kString,
     ShareGroupSettings::kOwnAutoOffsetReset, 0, 0,
     "Where a new share-partition starts: latest (the log's end) or earliest (its start)."},
    {"share.delivery.count.limit", "group.share.delivery.count.limit", "5", ConfigType::kInt,
     ShareGroupSettings::kOwnDeliveryCountLimit, share::kMinDeliveryCountLimit,
     share::kMaxDeliveryCountLimit, "Deliveries of a record before it is archived."},
    {"share.heartbeat.interval.ms", "group.share.heartbeat.interval.ms", "5000", ConfigType::kInt,
     ShareGroupSettings::kOwnHeartbeatInterval, 5'000, 15'000,
     "How often a member is asked to heartbeat; less than share.session.timeout.ms."},
    {"share.partition.max.record.locks", "group.share.partition.max.record.locks", "2000",
     ConfigType::kInt, ShareGroupSettings::kOwnPartitionMaxRecordLocks,
     share::kMinPartitionMaxRecordLocks, share::kMaxPartitionMaxRecordLocks,
     "Records in flight per share-partition (between its start and end offsets)."},
    {"share.record.lock.duration.ms", "group.share.record.lock.duration.ms", "30000",
     ConfigType::kInt, ShareGroupSettings::kOwnRecordLockDuration, 1000, 3'600'000,
     "How long a record a member acquired stays locked to it."},
    {"share.session.timeout.ms", "group.share.session.timeout.ms", "45000", ConfigType::kInt,
     ShareGroupSettings::kOwnSessionTimeout, 45'000, 60'000,
     "How long a member stays without a heartbeat before it is removed and its records are "
     "released."},
}};

// Kafka's group configs kgroupsd does not keep.
constexpr std::array<std::string_view, 2> kUnsupportedGroupConfigs{
    "consumer.session.timeout.ms", "consumer.heartbeat.interval.ms"};

const GroupConfigDefinition* find_definition(std::string_view name) {
  for (const GroupConfigDefinition& definition : kGroupConfigs) {
    if (definition.name == name) return &definition;
  }
  return nullptr;
}

std::string value_of(const GroupConfigDefinition& definition, const ShareGroupSettings& settings) {
  const share::ShareLimits& limits = settings.limits;
  switch (definition.own_bit) {
    case ShareGroupSettings::kOwnAutoOffsetReset:
      return settings.start_at_earliest ? "earliest" : "latest";
    case ShareGroupSettings::kOwnDeliveryCountLimit:
      return std::to_string(limits.delivery_count_limit);
    case ShareGroupSettings::kOwnPartitionMaxRecordLocks:
      return std::to_string(limits.partition_max_record_locks);
    case ShareGroupSettings::kOwnSessionTimeout:
      return std::to_string(settings.session_timeout_ms);
    case ShareGroupSettings::kOwnHeartbeatInterval:
      return std::to_string(settings.heartbeat_interval_ms);
    default:
      return std::to_string(limits.record_lock_duration_ms);
  }
}

// Copies the setting `definition` names from `from` into `into`.
void copy_setting(const GroupConfigDefinition& definition, const ShareGroupSettings& from,
                  ShareGroupSettings& into) {
  switch (definition.own_bit) {
    case ShareGroupSettings::kOwnAutoOffsetReset:
      into.start_at_earliest = from.start_at_earliest;
      break;
    case ShareGroupSettings::kOwnDeliveryCountLimit:
      into.limits.delivery_count_limit = from.limits.delivery_count_limit;
      break;
    case ShareGroupSettings::kOwnPartitionMaxRecordLocks:
      into.limits.partition_max_record_locks = from.limits.partition_max_record_locks;
      break;
    case ShareGroupSettings::kOwnSessionTimeout:
      into.session_timeout_ms = from.session_timeout_ms;
      break;
    case ShareGroupSettings::kOwnHeartbeatInterval:
      into.heartbeat_interval_ms = from.heartbeat_interval_ms;
      break;
    default:
      into.limits.record_lock_duration_ms = from.limits.record_lock_duration_ms;
  }
}

// The range a whole-number config takes: its definition's, widened to include the broker's
// own value (a broker started with --group-share-session-timeout-ms 6000 accepts 6000).
std::pair<std::int64_t, std::int64_t> bounds_for(const GroupConfigDefinition& definition,
                                                 const ShareGroupSettings& broker) {
  std::int64_t broker_value = 0;
  const std::string text = value_of(definition, broker);
  std::from_chars(text.data(), text.data() + text.size(), broker_value);
  return {std::min(definition.min, broker_value), std::max(definition.max, broker_value)};
}

// Sets `value` into `settings`, or says why it is not a valid value.
std::optional<std::string> set_value(const GroupConfigDefinition& definition,
                                     std::string_view value, const ShareGroupSettings& broker,
                                     ShareGroupSettings& settings) {
  const std::string invalid =
      "Invalid value " + std::string(value) + " for configuration " + std::string(definition.name);
  if (definition.type == ConfigType::kString) {
    if (value != "latest" && value != "earliest") {
      return invalid + ": String must be one of: latest, earliest";
    }
    settings.start_at_earliest = value == "earliest";
    return std::nullopt;
  }
  std::int64_t number = 0;
  const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), number);
  if (error != std::errc() || end != value.data() + value.size()) {
    return invalid + ": Not a number of type INT";
  }
  const auto [min, max] = bounds_for(definition, broker);
  if (number < min || number > max) {
    return invalid + ": Value must be in [" + std::to_string(min) + ", " + std::to_string(max) +
           "]";
  }
  switch (definition.own_bit) {
    case ShareGroupSettings::kOwnDeliveryCountLimit:
      settings.limits.delivery_count_limit = static_cast<int>(number);
      break;
    case ShareGroupSettings::kOwnPartitionMaxRecordLocks:
      settings.limits.partition_max_record_locks = static_cast<int>(number);
      break;
    case ShareGroupSettings::kOwnSessionTimeout:
      settings.session_timeout_ms = static_cast<std::int32_t>(number);
      break;
    case ShareGroupSettings::kOwnHeartbeatInterval:
      settings.heartbeat_interval_ms = static_cast<std::int32_t>(number);
      break;
    default:
      settings.limits.record_lock_duration_ms = number;
  }
  return std::nullopt;
}

// Why `group_id` cannot have share group configs, or nullopt.
std::optional<AlterOutcome> refuse_group(CoordinatorService& groups, std::string_view group_id) {
  if (group_id.empty()) return AlterOutcome{ErrorCode::kInvalidRequest, "Group id is empty."};
  if (groups.share().has_group(group_id)) return std::nullopt;
  if (groups.classic().has_group(group_id) || groups.consumer().has_group(group_id)) {
    return AlterOutcome{ErrorCode::kInvalidRequest,
                        "Group '" + std::string(group_id) +
                            "' is a classic or consumer group: kgroupsd keeps group configs "
                            "(share.*) for share groups only."};
  }
  return std::nullopt;
}

}  // namespace

AlterOutcome alter_group_config(CoordinatorService& groups, std::string_view group_id,
                                std::span<const ConfigChange> changes, bool validate_only) {
  if (auto refused = refuse_group(groups, group_id)) return std::move(*refused);
  const ShareGroupSettings broker = groups.share().config().settings;
  ShareGroupSettings settings = groups.share().settings_of(group_id);
  std::set<std::string_view> named;
  for (const ConfigChange& change : changes) {
    if (!named.insert(change.name).second) {
      return {ErrorCode::kInvalidRequest,
              "Config " + std::string(change.name) + " is named more than once."};
    }
    const GroupConfigDefinition* definition = find_definition(change.name);
    if (definition == nullptr) {
      const bool unsupported =
          std::find(kUnsupportedGroupConfigs.begin(), kUnsupportedGroupConfigs.end(),
                    change.name) != kUnsupportedGroupConfigs.end();
      return {ErrorCode::kInvalidConfig,
              unsupported ? "Group config " + std::string(change.name) +
                                " is not supported by kgroupsd (it keeps share group configs "
                                "only)."
                          : "Unknown group config name: " + std::string(change.name)};
    }
    switch (static_cast<ConfigOperation>(change.operation)) {
      case ConfigOperation::kSet:
        if (!change.value) {
          return {ErrorCode::kInvalidRequest,
                  "Null value not supported for: " + std::string(change.name)};
        }
        if (auto invalid = set_value(*definition, *change.value, broker, settings)) {
          return {ErrorCode::kInvalidConfig, std::move(*invalid)};
        }
        settings.own |= definition->own_bit;
        break;
      case ConfigOperation::kDelete:
        copy_setting(*definition, broker, settings);
        settings.own &= static_cast<std::uint8_t>(~definition->own_bit);
        break;
      case ConfigOperation::kAppend:
      case ConfigOperation::kSubtract:
        return {ErrorCode::kInvalidConfig, "Config " + std::string(change.name) +
                                               " is not a list: append and subtract apply to "
                                               "list configs only."};
      default:
        return {ErrorCode::kInvalidRequest,
                "Unknown config operation " + std::to_string(change.operation) + "."};
    }
  }
  if (settings.session_timeout_ms <= settings.heartbeat_interval_ms) {
    return {ErrorCode::kInvalidConfig,
            "share.session.timeout.ms must be greater than share.heartbeat.interval.ms (now " +
                std::to_string(settings.session_timeout_ms) + " and " +
                std::to_string(settings.heartbeat_interval_ms) + ")."};
  }
  if (!groups.share().has_group(group_id) &&
      groups.share().group_ids().size() >= groups.share().config().max_groups) {
    return {ErrorCode::kPolicyViolation,
            "The broker holds --max-groups share groups already; delete one or raise the limit."};
  }
  if (!validate_only) {
    groups.begin_share_call();
    groups.share().set_group_settings(group_id, settings);
    groups.finish_call();
  }
  return {};
}

GroupConfigLookup describe_group_configs(CoordinatorService& groups, std::string_view group_id) {
  GroupConfigLookup lookup;
  if (auto refused = refuse_group(groups, group_id)) {
    lookup.error = std::move(*refused);
    return lookup;
  }
  const ShareGroupSettings broker = groups.share().config().settings;
  const ShareGroupSettings settings = groups.share().settings_of(group_id);
  for (const GroupConfigDefinition& definition : kGroupConfigs) {
    DescribedConfig& out = lookup.configs.emplace_back();
    out.name = definition.name;
    out.value = value_of(definition, settings);
    out.type = definition.type;
    out.documentation = definition.documentation;
    if ((settings.own & definition.own_bit) != 0) {
      out.synonyms.push_back({definition.name, out.value, ConfigSource::kGroup});
    }
    const std::string broker_value = value_of(definition, broker);
    if (!definition.broker_name.empty() && broker_value != definition.kafka_default) {
      out.synonyms.push_back({definition.broker_name, broker_value, ConfigSource::kStaticBroker});
    }
    out.synonyms.push_back(
        {definition.broker_name.empty() ? definition.name : definition.broker_name,
         std::string(definition.kafka_default), ConfigSource::kDefault});
    out.source = out.synonyms.front().source;
  }
  return lookup;
}

}  // namespace kgroups::broker::handlers
