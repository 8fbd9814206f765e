// SPDX-License-Identifier: Apache-2.0
//
// TopicCatalog: what the consumer-group coordinator needs to know about the broker's
// topics: each topic's id, name and partition count, and a version that changes
// whenever any topic is created, grows or is deleted. Groups compare the version
// they last saw on each heartbeat and, when it moved, recompute the metadata of the
// topics they subscribe to; a change there bumps the group epoch and so the target
// assignment (as Kafka does on subscription metadata change).
// The broker implements it; InMemoryTopicCatalog (in_memory_topic_catalog.h) serves
// tests. The coordinator calls it from its own strand only: an implementation must
// be safe to call from there while topics change elsewhere.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "broker/coordinator/topic_id.h"

namespace kgroups::broker {

struct TopicDescription {
  TopicId id{};
  std::string name;
  std::int32_t partition_count = 0;  // >= 1 for a topic that exists

  bool operator==(const TopicDescription&) const = default;
};

class TopicCatalog {
 public:
  virtual ~TopicCatalog() = default;

  // Returns the topic of that name, or nullopt if none exists.
  [[nodiscard]] virtual std::optional<TopicDescription> find_by_name(
      std::string_view name) const = 0;

  // Returns the topic of that id, or nullopt if none exists.
  [[nodiscard]] virtual std::optional<TopicDescription> find_by_id(const TopicId& id) const = 0;

  // Returns a counter that differs after any topic was created, grew or was deleted.
  [[nodiscard]] virtual std::uint64_t version() const = 0;
};

}  // namespace kgroups::broker
