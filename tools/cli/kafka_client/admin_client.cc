// SPDX-License-Identifier: Apache-2.0
//
// AdminClient's connections, Metadata and the coordinator lookup; the group calls are in
// admin_client_groups.cc, ListOffsets in admin_client_offsets.cc.
#include <algorithm>
#include <thread>

#include "kafka_client/admin_client.h"
#include "protocol/messages/find_coordinator.h"
#include "protocol/messages/metadata.h"

namespace kgroups::cli {
namespace {

// How long to wait before asking again for a coordinator that is loading or has moved.
constexpr std::chrono::milliseconds kCoordinatorBackoff{100};

}  // namespace

std::string describe_error(protocol::ErrorCode error) {
  return std::string(protocol::error_name(error)) + " (" + std::to_string(static_cast<int>(error)) +
         ")";
}

bool is_retriable_coordinator_error(protocol::ErrorCode error) {
  return error == protocol::ErrorCode::kCoordinatorLoadInProgress ||
         error == protocol::ErrorCode::kCoordinatorNotAvailable ||
         error == protocol::ErrorCode::kNotCoordinator;
}

AdminClient::AdminClient(BrokerAddress bootstrap, Deadline deadline)
    : deadline_(deadline), bootstrap_(std::move(bootstrap)) {
  connection_to(bootstrap_);
}

BrokerConnection& AdminClient::connection_to(const BrokerAddress& address) {
  const std::string key = address.to_string();
  auto found = connections_.find(key);
  if (found == connections_.end()) {
    found = connections_.emplace(key, std::make_unique<BrokerConnection>(address, deadline_)).first;
  }
  return *found->second;
}

ClusterMetadata AdminClient::metadata(const std::optional<std::vector<std::string>>& topics) {
  protocol::MetadataRequest request;
  request.allow_auto_topic_creation = false;
  if (topics) {
    request.topics.emplace();
    for (const std::string& name : *topics) {
      protocol::MetadataRequest::Topic topic;
      topic.name = name;
      request.topics->push_back(topic);
    }
  } else {
    request.topics = std::nullopt;
  }
  BrokerConnection& bootstrap = connection_to(bootstrap_);
  if (!topics && bootstrap.version_for<protocol::MetadataRequest>() == 0) {
    request.topics = std::vector<protocol::MetadataRequest::Topic>{};  // v0: empty means all
  }
  auto response = bootstrap.call<protocol::MetadataResponse>(request);
  ClusterMetadata cluster;
  for (const auto& broker : response.brokers) {
    cluster.brokers[broker.node_id] =
        BrokerAddress{broker.host, static_cast<std::uint16_t>(broker.port)};
  }
  for (auto& topic : response.topics) {
    TopicMetadata described;
    described.name = topic.name.value_or("");
    described.error = topic.error_code;
    described.is_internal = topic.is_internal;
    for (const auto& partition : topic.partitions) {
      described.partitions.push_back(
          PartitionMetadata{partition.partition_index, partition.leader_id, partition.error_code});
    }
    std::sort(described.partitions.begin(), described.partitions.end(),
              [](const auto& a, const auto& b) { return a.partition < b.partition; });
    cluster.topics.push_back(std::move(described));
  }
  std::sort(cluster.topics.begin(), cluster.topics.end(),
            [](const auto& a, const auto& b) { return a.name < b.name; });
  return cluster;
}

BrokerConnection& AdminClient::coordinator_for(const std::string& group_id) {
  if (const auto known = coordinators_.find(group_id); known != coordinators_.end()) {
    return connection_to(known->second);
  }
  for (;;) {
    BrokerConnection& bootstrap = connection_to(bootstrap_);
    protocol::FindCoordinatorRequest request;
    request.key = group_id;
    request.key_type = 0;
    request.coordinator_keys = {group_id};
    const auto response = bootstrap.call<protocol::FindCoordinatorResponse>(request);
    const bool batched = bootstrap.version_for<protocol::FindCoordinatorRequest>() >= 4;
    protocol::ErrorCode error = response.error_code;
    BrokerAddress address{response.host, static_cast<std::uint16_t>(response.port)};
    if (batched) {
      if (response.coordinators.empty()) {
        throw KafkaClientError("broker " + bootstrap_.to_string() +
                               " answered FindCoordinator without a coordinator");
      }
      const auto& coordinator = response.coordinators.front();
      error = coordinator.error_code;
      address = BrokerAddress{coordinator.host, static_cast<std::uint16_t>(coordinator.port)};
    }
    if (error == protocol::ErrorCode::kNone) {
      coordinators_[group_id] = address;
      return connection_to(address);
    }
    if (!is_retriable_coordinator_error(error)) {
      throw KafkaClientError("cannot find the coordinator of group '" + group_id +
                             "': " + describe_error(error));
    }
    retry_coordinator(group_id, error);
  }
}

void AdminClient::retry_coordinator(const std::string& group_id, protocol::ErrorCode error) {
  coordinators_.erase(group_id);
  if (std::chrono::steady_clock::now() + kCoordinatorBackoff >= deadline_) {
    throw KafkaClientError("the coordinator of group '" + group_id + "' is not available: " +
                           describe_error(error) + " until the timeout (--timeout-ms)");
  }
  std::this_thread::sleep_for(kCoordinatorBackoff);
}

}  // namespace kgroups::cli
