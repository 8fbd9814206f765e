// SPDX-License-Identifier: Apache-2.0
#include "group/range_assignor.h"

#include <cstddef>
#include <numeric>

namespace kgroups {

void RangeAssignor::assign(int num_partitions, std::span<const std::string_view> member_ids,
                           std::span<const std::vector<int>> /*previous*/,
                           std::span<std::vector<int>> assignments) const {
  const auto member_count = static_cast<int>(member_ids.size());
  if (member_count == 0) return;
  const int per_member = num_partitions / member_count;
  const int with_extra = num_partitions % member_count;
  int next_partition = 0;
  for (int member = 0; member < member_count; ++member) {
    const int count = per_member + (member < with_extra ? 1 : 0);
    std::vector<int>& partitions = assignments[static_cast<std::size_t>(member)];
    partitions.resize(static_cast<std::size_t>(count));
    std::iota(partitions.begin(), partitions.end(), next_partition);
    next_partition += count;
  }
}

}  // namespace kgroups
