// SPDX-License-Identifier: Apache-2.0
//
// What AlterConfigs and IncrementalAlterConfigs do to one resource: find it, work out the
// topic's new configs (topic_config_change.h), check them (resolve_topic_config) and, unless
// validate_only, store them. All or nothing: on any error nothing changes.
// A broker resource (a broker's id, or "" for the cluster-wide default) changes the dynamic
// broker configs that set topic defaults (alter_broker_config.h); any other broker config is
// refused with INVALID_REQUEST, as Kafka refuses configs that are not dynamically updatable.
// Not thread-safe: used on the broker's network thread.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "broker/config/topic_config_change.h"
#include "broker/storage/cluster.h"
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

// The response to an AlterConfigs or IncrementalAlterConfigs `request`: each resource altered
// as `mode` says, with `change_of(config)` giving each config's ConfigChange; a resource
// named more than once gets INVALID_REQUEST and changes nothing. A group resource (type 32)
// goes to `alter_group(name, changes, validate_only)`, which returns an AlterOutcome. A resource
// `refusal(type, name)` gives an AlterOutcome with an error for (the client may not alter it)
// gets that and changes nothing.
template <typename Response, typename Request, typename ChangeOf, typename AlterGroup,
          typename Refusal>
Response alter_resources(Cluster& cluster, std::int32_t node_id, const Request& request,
                         AlterMode mode, ChangeOf change_of, AlterGroup alter_group,
                         Refusal refusal) {
  const std::vector<bool> repeated = repeated_resources(request.resources);
  Response response;
  std::vector<ConfigChange> changes;
  for (std::size_t i = 0; i < request.resources.size(); ++i) {
    const auto& resource = request.resources[i];
    auto& out = response.responses.emplace_back();
    out.resource_type = resource.resource_type;
    out.resource_name = std::string(resource.resource_name);
    if (repeated[i]) {
      out.error_code = protocol::ErrorCode::kInvalidRequest;
      out.error_message = "Resource named more than once in the request.";
      continue;
    }
    if (AlterOutcome refused = refusal(resource.resource_type, resource.resource_name);
        refused.error != protocol::ErrorCode::kNone) {
      out.error_code = refused.error;
      out.error_message = std::move(refused.message);
      continue;
    }
    changes.clear();
    for (const auto& config : resource.configs) changes.push_back(change_of(config));
    constexpr std::int8_t kGroupResourceType = 32;
    AlterOutcome outcome =
        resource.resource_type == kGroupResourceType
            ? alter_group(resource.resource_name, std::span<const ConfigChange>(changes),
                          request.validate_only)
            : alter_config_resource(cluster, node_id, resource.resource_type,
                                    resource.resource_name, changes, mode, request.validate_only);
    out.error_code = outcome.error;
    if (outcome.error != protocol::ErrorCode::kNone) out.error_message = std::move(outcome.message);
  }
  return response;
}

}  // namespace kgroups::broker::handlers
