// SPDX-License-Identifier: Apache-2.0
#include "broker/playground/delivered_offsets.h"

#include <algorithm>

namespace kgroups::broker::playground {

std::optional<OffsetRange> DeliveredOffsets::deliver(std::string_view group_id,
                                                     const protocol::Uuid& topic_id,
                                                     std::int32_t partition,
                                                     OffsetRange delivered) {
  std::int64_t& end = delivered_end_[Key{std::string(group_id), topic_id, partition}];
  std::optional<OffsetRange> replayed;
  if (delivered.from < end && delivered.from < delivered.to) {
    replayed = OffsetRange{delivered.from, std::min(end, delivered.to)};
  }
  end = std::max(end, delivered.to);
  return replayed;
}

}  // namespace kgroups::broker::playground
