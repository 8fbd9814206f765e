// SPDX-License-Identifier: Apache-2.0
#include "broker/coordinator/offset_store.h"

#include <utility>

namespace kgroups::broker {

void OffsetStore::commit(const TopicPartition& topic_partition, CommittedOffset committed) {
  offsets_.insert_or_assign(topic_partition, std::move(committed));
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

}  // namespace kgroups::broker
