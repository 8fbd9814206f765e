// SPDX-License-Identifier: Apache-2.0
//
// ClusterTopicCatalog: the broker's topics (Cluster) as the consumer-group coordinator sees
// them (coordinator/topic_catalog.h): id, name and partition count, and a version that moves
// whenever a topic is created. Not thread-safe: lives on the broker's network thread with the
// cluster and the coordinator.
#pragma once

#include "broker/coordinator/topic_catalog.h"
#include "broker/storage/cluster.h"

namespace kgroups::broker {

class ClusterTopicCatalog final : public TopicCatalog {
 public:
  // `cluster` must outlive the catalog.
  explicit ClusterTopicCatalog(const Cluster& cluster) : cluster_(cluster) {}

  [[nodiscard]] std::optional<TopicDescription> find_by_name(std::string_view name) const override {
    return describe(cluster_.find_topic(name));
  }
  [[nodiscard]] std::optional<TopicDescription> find_by_id(const TopicId& id) const override {
    return describe(cluster_.find_topic(id));
  }
  [[nodiscard]] std::uint64_t version() const override { return cluster_.metadata_version(); }

 private:
  static std::optional<TopicDescription> describe(const StoredTopic* topic) {
    if (topic == nullptr) return std::nullopt;
    return TopicDescription{.id = topic->id,
                            .name = topic->name,
                            .partition_count = static_cast<std::int32_t>(topic->partitions.size())};
  }

  const Cluster& cluster_;
};

}  // namespace kgroups::broker
