// SPDX-License-Identifier: Apache-2.0
//
// What DescribeConfigs, AlterConfigs and IncrementalAlterConfigs share about the resources
// they name: Kafka's resource type numbers, and the check that finds the topic (or this
// broker) a resource names, with the error and message when it cannot.
// Not thread-safe: used on the broker's network thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "broker/storage/cluster.h"
#include "protocol/error_code.h"

namespace kgroups::broker::handlers {

// Kafka's ConfigResource.Type numbers.
inline constexpr std::int8_t kTopicResource = 2;
inline constexpr std::int8_t kBrokerResource = 4;

struct ResourceLookup {
  protocol::ErrorCode error = protocol::ErrorCode::kNone;
  std::string message;           // with an error: why
  StoredTopic* topic = nullptr;  // a found topic resource
  bool broker = false;           // a broker resource: a broker, or the cluster-wide default
  std::optional<std::int32_t> broker_id;  // with `broker`: the broker; nullopt: cluster-wide
};

// The node id broker resource `name` names, when it is a broker of this cluster: today only
// this broker, `node_id`. nullopt for any other name.
std::optional<std::int32_t> known_broker_id(std::string_view name, std::int32_t node_id);

// Finds the resource: a topic (INVALID_TOPIC_EXCEPTION for an illegal name,
// UNKNOWN_TOPIC_OR_PARTITION when it does not exist) or a broker, named by its id
// (known_broker_id(); INVALID_REQUEST for any other name) or "" for the cluster-wide
// default; INVALID_REQUEST for other resource types.
ResourceLookup find_config_resource(Cluster& cluster, std::int32_t node_id, std::int8_t type,
                                    std::string_view name);

}  // namespace kgroups::broker::handlers
