// SPDX-License-Identifier: Apache-2.0
//
// What AlterConfigs and IncrementalAlterConfigs do to one resource: find it, work out the
// topic's new configs (topic_config_change.h), check them (resolve_topic_config) and, unless
// validate_only, store them. All or nothing: on any error nothing changes.
// Broker resources are refused with INVALID_REQUEST: kgroupsd's broker settings are its
// command line, none of them can be changed at run time (Kafka refuses configs that are not
// dynamically updatable the same way).
// Not thread-safe: used on the broker's network thread.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "broker/cluster.h"
#include "broker/topic_config_change.h"
#include "protocol/error_code.h"

namespace kgroups::broker::handlers {

enum class AlterMode : std::uint8_t {
  kReplace,      // AlterConfigs: the changes are the whole new set
  kIncremental,  // IncrementalAlterConfigs: the changes apply to the current set
};

struct AlterOutcome {
  protocol::ErrorCode error = protocol::ErrorCode::kNone;
  std::string message;  // with an error: why
};

AlterOutcome alter_config_resource(Cluster& cluster, std::int32_t node_id, std::int8_t type,
                                   std::string_view name, std::span<const ConfigChange> changes,
                                   AlterMode mode, bool validate_only);

// For each of `resources`, whether it is one of the resources named more than once in the request
// (by resource type and name).
template <typename Resources>
std::vector<bool> repeated_resources(const Resources& resources) {
  std::map<std::pair<std::int8_t, std::string_view>, int> mentions;
  for (const auto& resource : resources)
    ++mentions[{resource.resource_type, resource.resource_name}];
  std::vector<bool> repeated;
  repeated.reserve(resources.size());
  for (const auto& resource : resources) {
    repeated.push_back(mentions[{resource.resource_type, resource.resource_name}] > 1);
  }
  return repeated;
}

}  // namespace kgroups::broker::handlers
