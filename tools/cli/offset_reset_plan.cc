// SPDX-License-Identifier: Apache-2.0
#include "offset_reset_plan.h"

#include <algorithm>

namespace kgroups::cli {

std::vector<PlannedReset> plan_offset_reset(const std::vector<TopicPartitionId>& partitions,
                                            const PartitionOffsets& committed,
                                            const PartitionOffsets& earliest,
                                            const PartitionOffsets& latest, ResetTarget target) {
  std::vector<PlannedReset> plan;
  plan.reserve(partitions.size());
  for (const TopicPartitionId& partition : partitions) {
    PlannedReset reset;
    reset.partition = partition;
    if (const auto found = committed.find(partition); found != committed.end()) {
      reset.current_offset = found->second;
    }
    const std::int64_t low = earliest.at(partition);
    const std::int64_t high = latest.at(partition);
    switch (target.kind) {
      case ResetTarget::Kind::kEarliest:
        reset.new_offset = low;
        break;
      case ResetTarget::Kind::kLatest:
        reset.new_offset = high;
        break;
      case ResetTarget::Kind::kOffset:
        reset.new_offset = std::clamp(target.offset, low, std::max(low, high));
        break;
    }
    plan.push_back(std::move(reset));
  }
  return plan;
}

}  // namespace kgroups::cli
