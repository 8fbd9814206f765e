// SPDX-License-Identifier: Apache-2.0
#include "group/roundrobin_assignor.h"

#include <cstddef>

namespace kgroups {

void RoundRobinAssignor::assign(int num_partitions, std::span<const std::string_view> member_ids,
                                std::span<const std::vector<int>> /*previous*/,
                                std::span<std::vector<int>> assignments) const {
  const std::size_t member_count = member_ids.size();
  if (member_count == 0) return;
  const auto partition_count = static_cast<std::size_t>(num_partitions);
  for (std::size_t member = 0; member < member_count; ++member) {
    // Member i gets partitions i, i + m, i + 2m, ...
    std::vector<int>& partitions = assignments[member];
    partitions.resize(member < partition_count ? (partition_count - member - 1) / member_count + 1
                                               : 0);
    int partition = static_cast<int>(member);
    for (int& slot : partitions) {
      slot = partition;
      partition += static_cast<int>(member_count);
    }
  }
}

}  // namespace kgroups
