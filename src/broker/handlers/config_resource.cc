// SPDX-License-Identifier: Apache-2.0
#include "broker/handlers/config_resource.h"

namespace kgroups::broker::handlers {

using protocol::ErrorCode;

std::optional<std::int32_t> known_broker_id(std::string_view name, std::int32_t node_id) {
  if (name != std::to_string(node_id)) return std::nullopt;
  return node_id;
}

ResourceLookup find_config_resource(Cluster& cluster, std::int32_t node_id, std::int8_t type,
                                    std::string_view name) {
  ResourceLookup found;
  if (type == kTopicResource) {
    if (!Cluster::is_valid_topic_name(name)) {
      found.error = ErrorCode::kInvalidTopicException;
      found.message = "Topic name '" + std::string(name) + "' is illegal.";
    } else if ((found.topic = cluster.find_topic(name)) == nullptr) {
      found.error = ErrorCode::kUnknownTopicOrPartition;
      found.message = "Topic '" + std::string(name) + "' does not exist.";
    }
  } else if (type == kBrokerResource) {
    found.broker_id = known_broker_id(name, node_id);
    if (!name.empty() && !found.broker_id) {
      found.error = ErrorCode::kInvalidRequest;
      found.message = "Unexpected broker id '" + std::string(name) + "': this broker is " +
                      std::to_string(node_id) + " (\"\" names the cluster-wide default).";
    } else {
      found.broker = true;
    }
  } else {
    found.error = ErrorCode::kInvalidRequest;
    found.message =
        "Resource type " + std::to_string(type) +
        " is not supported: kgroupsd has configs for topics (2), brokers (4) and groups (32).";
  }
  return found;
}

}  // namespace kgroups::broker::handlers
