// SPDX-License-Identifier: Apache-2.0
#include "group/roundrobin_assignor.h"

#include <cstddef>

namespace kgroups {

void RoundRobinAssignor::assign(int num_partitions, std::span<const std::string_view> member_ids,
                                std::span<const std::vector<int>> /*previous*/,
                                std::span<std::vector<int>> assignments) const {
  const std::size_t member_count = member_ids.size();
  if (member_count == 0) return;
  for (std::size_t member = 0; member < member_count; ++member) assignments[member].clear();
  std::size_t member = 0;
  for (int partition = 0; partition < num_partitions; ++partition) {
    assignments[member].push_back(partition);
    if (++member == member_count) member = 0;
  }
}

}  // namespace kgroups
