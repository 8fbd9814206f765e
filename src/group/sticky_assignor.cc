// SPDX-License-Identifier: Apache-2.0
#include "group/sticky_assignor.h"

#include <algorithm>
#include <cstddef>
#include <numeric>

namespace kgroups {
namespace {

// shares[i]: how many partitions member i gets.
void compute_shares(int num_partitions, std::span<const std::vector<int>> previous,
                    std::vector<std::size_t>& shares) {
  const std::size_t member_count = shares.size();
  const std::size_t base = static_cast<std::size_t>(num_partitions) / member_count;
  const std::size_t larger = static_cast<std::size_t>(num_partitions) % member_count;
  std::vector<std::size_t> by_previous(member_count);
  std::iota(by_previous.begin(), by_previous.end(), std::size_t{0});
  auto owned = [previous](std::size_t member) {
    return member < previous.size() ? previous[member].size() : std::size_t{0};
  };
  // Most previously owned first; stable keeps id order among equals.
  std::stable_sort(by_previous.begin(), by_previous.end(),
                   [&owned](std::size_t a, std::size_t b) { return owned(a) > owned(b); });
  for (std::size_t rank = 0; rank < member_count; ++rank) {
    shares[by_previous[rank]] = base + (rank < larger ? 1 : 0);
  }
}

}  // namespace

void StickyAssignor::assign(int num_partitions, std::span<const std::string_view> member_ids,
                            std::span<const std::vector<int>> previous,
                            std::span<std::vector<int>> assignments) const {
  const std::size_t member_count = member_ids.size();
  if (member_count == 0) return;
  std::vector<std::size_t> shares(member_count);
  compute_shares(num_partitions, previous, shares);

  std::vector<bool> taken(static_cast<std::size_t>(num_partitions), false);
  for (std::size_t member = 0; member < member_count; ++member) {
    std::vector<int>& partitions = assignments[member];
    partitions.clear();
    if (member >= previous.size()) continue;
    for (const int partition : previous[member]) {
      if (partitions.size() == shares[member]) break;
      if (partition < 0 || partition >= num_partitions) continue;
      const auto index = static_cast<std::size_t>(partition);
      if (taken[index]) continue;
      taken[index] = true;
      partitions.push_back(partition);
    }
  }
  int next_free = 0;
  for (std::size_t member = 0; member < member_count; ++member) {
    std::vector<int>& partitions = assignments[member];
    const std::size_t kept = partitions.size();
    while (partitions.size() < shares[member]) {
      while (taken[static_cast<std::size_t>(next_free)]) ++next_free;
      taken[static_cast<std::size_t>(next_free)] = true;
      partitions.push_back(next_free);
    }
    if (kept > 0 && partitions.size() > kept) {
      std::inplace_merge(partitions.begin(), partitions.begin() + static_cast<std::ptrdiff_t>(kept),
                         partitions.end());
    }
  }
}

}  // namespace kgroups
