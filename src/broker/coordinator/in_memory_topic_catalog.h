// SPDX-License-Identifier: Apache-2.0
//
// InMemoryTopicCatalog: a TopicCatalog kept in two maps, for tests and tools. Ids are
// given or derived from a counter, so tests are deterministic.
// Not thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "broker/coordinator/topic_catalog.h"

namespace kgroups::broker {

class InMemoryTopicCatalog final : public TopicCatalog {
 public:
  // Creates the topic (replacing one of the same name) and returns its id: `id` when
  // given, otherwise a fresh one. `partition_count` must be >= 1.
  TopicId create_topic(std::string_view name, std::int32_t partition_count,
                       std::optional<TopicId> id = std::nullopt);

  // Sets an existing topic's partition count; returns false if there is no such topic.
  bool set_partition_count(std::string_view name, std::int32_t partition_count);

  // Deletes the topic; returns false if there is no such topic.
  bool delete_topic(std::string_view name);

  [[nodiscard]] std::optional<TopicDescription> find_by_name(std::string_view name) const override;
  [[nodiscard]] std::optional<TopicDescription> find_by_id(const TopicId& id) const override;
  [[nodiscard]] std::uint64_t version() const override { return version_; }

 private:
  std::map<std::string, TopicDescription, std::less<>> by_name_;
  std::map<TopicId, std::string> name_of_;
  std::uint64_t version_ = 0;
  std::uint64_t next_id_ = 1;
};

}  // namespace kgroups::broker
