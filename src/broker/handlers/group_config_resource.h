// SPDX-License-Identifier: Apache-2.0
//
// The configs of a group resource (Kafka's ConfigResource type 32, KIP-848/KIP-932 group
// configs) for share groups: share.record.lock.duration.ms (1000..3600000),
// share.auto.offset.reset (latest or earliest), share.delivery.count.limit (2..10),
// share.partition.max.record.locks (100..10000), share.session.timeout.ms (45000..60000) and
// share.heartbeat.interval.ms (5000..15000; less than the session timeout), each defaulting to
// the broker's group.share.* setting, whose value each range also takes. IncrementalAlterConfigs
// changes them all or nothing per resource (ShareGroupCoordinator::set_group_settings);
// DescribeConfigs reports them (ShareGroupCoordinator::settings_of). A group id that no group holds
// yet becomes an empty share group holding the configs (as Kafka keeps configs for a group before
// it exists); the id of a classic or consumer group is refused (kgroupsd keeps no configs for
// them). Not thread-safe: used on the broker's network thread.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "broker/config/described_config.h"
#include "broker/config/topic_config_change.h"
#include "broker/groups/coordinator_service.h"
#include "broker/handlers/alter_config_resource.h"

namespace kgroups::broker::handlers {

// Kafka's ConfigResource.Type number of a group.
inline constexpr std::int8_t kGroupResource = 32;

// Applies `changes` (IncrementalAlterConfigs' set and delete) to share group `group_id`, or
// with validate_only only checks them. Errors, changing nothing: INVALID_REQUEST (an empty
// group id, the id of a classic or consumer group, an unknown operation, a set without a
// value, a config named twice), INVALID_CONFIG (a name that is not a share group config, a
// value out of range, append or subtract), POLICY_VIOLATION (a new group beyond max_groups).
AlterOutcome alter_group_config(CoordinatorService& groups, std::string_view group_id,
                                std::span<const ConfigChange> changes, bool validate_only);

// The share group configs of `group_id` in name order, with source kGroup for those the group
// set and the broker's (kStaticBroker where its flag differs from Kafka's default, else
// kDefault) for the others; a group id no share group holds gets the broker's. Errors as
// alter_group_config's for an empty id or another type of group's id.
struct GroupConfigLookup {
  AlterOutcome error;
  std::vector<DescribedConfig> configs;
};
GroupConfigLookup describe_group_configs(CoordinatorService& groups, std::string_view group_id);

}  // namespace kgroups::broker::handlers
