// SPDX-License-Identifier: Apache-2.0
#include "broker/playground/delivered_offsets.h"

#include <algorithm>

namespace kgroups::broker::playground {

DeliveredOffsets::~DeliveredOffsets() { release(held_bytes_); }

bool DeliveredOffsets::hold(std::size_t bytes) {
  if (!memory_.hold(bytes)) return false;
  held_bytes_ += bytes;
  return true;
}

void DeliveredOffsets::release(std::size_t bytes) {
  held_bytes_ -= bytes;
  memory_.release(bytes);
}

std::optional<OffsetRange> DeliveredOffsets::deliver(std::string_view group_id,
                                                     const protocol::Uuid& topic_id,
                                                     std::int32_t partition,
                                                     OffsetRange delivered) {
  auto group = groups_.find(group_id);
  if (group == groups_.end()) {
    const std::size_t bytes = kGroupEntryBytes + group_id.size();
    if (!hold(bytes)) {
      ++untracked_;
      return std::nullopt;
    }
    group = groups_.try_emplace(std::string(group_id)).first;
    group->second.held_bytes = bytes;
  }
  const PartitionKey key{topic_id, partition};
  auto found = group->second.delivered_end.find(key);
  if (found == group->second.delivered_end.end()) {
    if (!hold(kPartitionEntryBytes)) {
      ++untracked_;
      return std::nullopt;
    }
    group->second.held_bytes += kPartitionEntryBytes;
    found = group->second.delivered_end.emplace(key, 0).first;
  }
  std::int64_t& end = found->second;
  std::optional<OffsetRange> replayed;
  if (delivered.from < end && delivered.from < delivered.to) {
    replayed = OffsetRange{delivered.from, std::min(end, delivered.to)};
  }
  end = std::max(end, delivered.to);
  return replayed;
}

std::size_t DeliveredOffsets::size() const {
  std::size_t partitions = 0;
  for (const auto& [group_id, group] : groups_) partitions += group.delivered_end.size();
  return partitions;
}

}  // namespace kgroups::broker::playground
