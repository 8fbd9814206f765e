// SPDX-License-Identifier: Apache-2.0
#include "broker/coordinator/in_memory_topic_catalog.h"

namespace kgroups::broker {

TopicId InMemoryTopicCatalog::create_topic(std::string_view name, std::int32_t partition_count,
                                           std::optional<TopicId> id) {
  delete_topic(name);
  TopicId topic_id{};
  if (id) {
    topic_id = *id;
  } else {
    // The counter, big-endian, in the last 8 bytes; the first byte marks generated ids.
    topic_id[0] = 0x6b;
    std::uint64_t counter = next_id_++;
    for (int i = 15; i >= 8; --i) {
      topic_id[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(counter & 0xff);
      counter >>= 8;
    }
  }
  by_name_[std::string(name)] = TopicDescription{topic_id, std::string(name), partition_count};
  name_of_[topic_id] = std::string(name);
  ++version_;
  return topic_id;
}

bool InMemoryTopicCatalog::set_partition_count(std::string_view name,
                                               std::int32_t partition_count) {
  auto topic = by_name_.find(name);
  if (topic == by_name_.end()) return false;
  topic->second.partition_count = partition_count;
  ++version_;
  return true;
}

bool InMemoryTopicCatalog::delete_topic(std::string_view name) {
  auto topic = by_name_.find(name);
  if (topic == by_name_.end()) return false;
  name_of_.erase(topic->second.id);
  by_name_.erase(topic);
  ++version_;
  return true;
}

std::optional<TopicDescription> InMemoryTopicCatalog::find_by_name(std::string_view name) const {
  auto topic = by_name_.find(name);
  if (topic == by_name_.end()) return std::nullopt;
  return topic->second;
}

std::optional<TopicDescription> InMemoryTopicCatalog::find_by_id(const TopicId& id) const {
  auto name = name_of_.find(id);
  if (name == name_of_.end()) return std::nullopt;
  return find_by_name(name->second);
}

}  // namespace kgroups::broker
