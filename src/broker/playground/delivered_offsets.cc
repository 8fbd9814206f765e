// SPDX-License-Identifier: Apache-2.0
#include "broker/playground/delivered_offsets.h"

#include <algorithm>

namespace kgroups::broker::playground {

std::optional<OffsetRange> DeliveredOffsets::deliver(std::string_view group_id,
                                                     const protocol::Uuid& topic_id,
                                                     std::int32_t partition,
                                                     OffsetRange delivered) {
  auto group = delivered_end_.find(group_id);
  if (group == delivered_end_.end())
    group = delivered_end_.try_emplace(std::string(group_id)).first;
  std::int64_t& end = group->second[PartitionKey{topic_id, partition}];
  std::optional<OffsetRange> replayed;
  if (delivered.from < end && delivered.from < delivered.to) {
    replayed = OffsetRange{delivered.from, std::min(end, delivered.to)};
  }
  end = std::max(end, delivered.to);
  return replayed;
}

std::size_t DeliveredOffsets::size() const {
  std::size_t partitions = 0;
  for (const auto& [group_id, ends] : delivered_end_) partitions += ends.size();
  return partitions;
}

}  // namespace kgroups::broker::playground
