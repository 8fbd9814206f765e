// SPDX-License-Identifier: Apache-2.0
#include "broker/coordinator/offset_store.h"

#include <cstdint>
#include <limits>
#include <utility>

#include "broker/coordinator/stored_bytes.h"

namespace kgroups::broker {

void OffsetStore::commit(const TopicPartition& topic_partition, CommittedOffset committed) {
  auto found = offsets_.find(topic_partition);
  if (found == offsets_.end()) {
    stored_bytes_ += offset_entry_bytes(topic_partition.topic, committed.metadata);
    offsets_.emplace(topic_partition, std::move(committed));
    return;
  }
  stored_bytes_ = stored_bytes_ - found->second.metadata.size() + committed.metadata.size();
  found->second = std::move(committed);
}

CommittedOffset OffsetStore::fetch(const TopicPartition& topic_partition) const {
  auto found = offsets_.find(topic_partition);
  if (found == offsets_.end()) return CommittedOffset{};
  return found->second;
}

std::vector<PartitionOffset> OffsetStore::fetch_all() const {
  std::vector<PartitionOffset> all;
  all.reserve(offsets_.size());
  for (const auto& [topic_partition, committed] : offsets_) {
    all.push_back(PartitionOffset{topic_partition, committed});
  }
  return all;
}

std::size_t OffsetStore::growth_bytes(const TopicPartition& topic_partition,
                                      const CommittedOffset& committed) const {
  auto found = offsets_.find(topic_partition);
  if (found == offsets_.end()) {
    return offset_entry_bytes(topic_partition.topic, committed.metadata);
  }
  const std::size_t old_size = found->second.metadata.size();
  return committed.metadata.size() > old_size ? committed.metadata.size() - old_size : 0;
}

bool OffsetStore::remove(const TopicPartition& topic_partition) {
  auto found = offsets_.find(topic_partition);
  if (found == offsets_.end()) return false;
  stored_bytes_ -= offset_entry_bytes(found->first.topic, found->second.metadata);
  offsets_.erase(found);
  return true;
}

bool OffsetStore::has_topic(std::string_view topic) const {
  const auto first = offsets_.lower_bound(
      TopicPartition{std::string(topic), std::numeric_limits<std::int32_t>::min()});
  return first != offsets_.end() && first->first.topic == topic;
}

std::size_t OffsetStore::remove_topic(std::string_view topic) {
  // Entries are ordered by topic, then partition: the topic's are one run from its first.
  auto first = offsets_.lower_bound(
      TopicPartition{std::string(topic), std::numeric_limits<std::int32_t>::min()});
  auto last = first;
  std::size_t removed = 0;
  while (last != offsets_.end() && last->first.topic == topic) {
    stored_bytes_ -= offset_entry_bytes(last->first.topic, last->second.metadata);
    ++last;
    ++removed;
  }
  offsets_.erase(first, last);
  return removed;
}

}  // namespace kgroups::broker
