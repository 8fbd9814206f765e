// SPDX-License-Identifier: Apache-2.0
//
// What AlterConfigs and IncrementalAlterConfigs do to a broker resource: change the dynamic
// broker configs (dynamic_broker_config.h) of one broker or, with no broker, cluster-wide,
// and apply the topic defaults they give at once to every topic that does not set the config
// itself. All or nothing: on any error nothing changes; validate_only checks only.
// Not thread-safe: used on the broker's network thread.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "broker/config/topic_config_change.h"
#include "broker/storage/cluster.h"
#include "protocol/error_code.h"

namespace kgroups::broker::handlers {

struct BrokerAlterOutcome {
  protocol::ErrorCode error = protocol::ErrorCode::kNone;
  std::string message;  // with an error: why, and what to do
};

// Changes the dynamic broker configs of broker `broker` (nullopt: cluster-wide), on the
// broker `node_id` whose topic defaults they set. `incremental`: `changes` apply to the
// current values (IncrementalAlterConfigs); otherwise they are the whole new set
// (AlterConfigs). Errors: INVALID_REQUEST "Cannot update these configs dynamically: [...]"
// naming every config kgroupsd cannot change at run time (as Kafka answers for its
// read-only broker configs), and the request errors of topic_config_change.h;
// INVALID_CONFIG for an invalid value, and for values that contradict each other or a
// topic's own configs.
BrokerAlterOutcome alter_broker_config(Cluster& cluster, std::int32_t node_id,
                                       std::optional<std::int32_t> broker,
                                       std::span<const ConfigChange> changes, bool incremental,
                                       bool validate_only);

}  // namespace kgroups::broker::handlers
