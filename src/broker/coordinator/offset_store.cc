// SPDX-License-Identifier: Apache-2.0
#include "broker/coordinator/offset_store.h"

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

}  // namespace kgroups::broker
