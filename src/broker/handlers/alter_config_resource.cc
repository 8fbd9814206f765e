// SPDX-License-Identifier: Apache-2.0
#include "broker/handlers/alter_config_resource.h"

#include <variant>

#include "broker/config/topic_config_catalog.h"
#include "broker/handlers/alter_broker_config.h"
#include "broker/handlers/config_resource.h"

namespace kgroups::broker::handlers {

using protocol::ErrorCode;

AlterOutcome alter_config_resource(Cluster& cluster, std::int32_t node_id, std::int8_t type,
                                   std::string_view name, std::span<const ConfigChange> changes,
                                   AlterMode mode, bool validate_only) {
  const ResourceLookup found = find_config_resource(cluster, node_id, type, name);
  if (found.error != ErrorCode::kNone) return {found.error, found.message};
  if (found.broker) {
    BrokerAlterOutcome outcome = alter_broker_config(
        cluster, node_id, found.broker_id, changes, mode == AlterMode::kIncremental, validate_only);
    return {outcome.error, std::move(outcome.message)};
  }
  StoredTopic& topic = *found.topic;
  ConfigChangeResult changed = mode == AlterMode::kReplace
                                   ? replace_topic_configs(changes)
                                   : change_topic_configs(topic.set_configs, changes);
  if (auto* refused = std::get_if<ConfigChangeError>(&changed)) {
    return {refused->code, std::move(refused->message)};
  }
  auto& values = std::get<TopicConfigValues>(changed);
  std::string error;
  const std::optional<TopicConfig> config =
      resolve_topic_config(cluster.config().topic_defaults, values, error);
  if (!config) return {ErrorCode::kInvalidConfig, std::move(error)};
  if (!validate_only) cluster.set_topic_config(topic, *config, std::move(values));
  return {};
}

}  // namespace kgroups::broker::handlers
