// SPDX-License-Identifier: Apache-2.0
#include "broker/playground/leader_assignment.h"

#include <algorithm>
#include <string_view>

namespace kgroups::broker::playground {
namespace {

// The indexes of the subscribed members, sorted by member id (the model's member order).
std::vector<std::size_t> model_order(const std::vector<LeaderView>& members) {
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < members.size(); ++i) {
    if (members[i].subscribed) order.push_back(i);
  }
  std::sort(order.begin(), order.end(), [&members](std::size_t a, std::size_t b) {
    return members[a].member_id < members[b].member_id;
  });
  order.erase(std::unique(order.begin(), order.end(),
                          [&members](std::size_t a, std::size_t b) {
                            return members[a].member_id == members[b].member_id;
                          }),
              order.end());
  return order;
}

// Each model member's previous partitions: in range, ascending, each claimed by the first
// member (in model order) that reports it. `owner` gets each partition's model member or -1.
std::vector<std::vector<int>> previous_partitions(const std::vector<LeaderView>& members,
                                                  const std::vector<std::size_t>& order,
                                                  int num_partitions, std::vector<int>& owner) {
  owner.assign(static_cast<std::size_t>(num_partitions), -1);
  std::vector<std::vector<int>> previous(order.size());
  for (std::size_t m = 0; m < order.size(); ++m) {
    for (const std::int32_t partition : members[order[m]].owned) {
      if (partition < 0 || partition >= num_partitions) continue;
      int& slot = owner[static_cast<std::size_t>(partition)];
      if (slot != -1) continue;
      slot = static_cast<int>(m);
      previous[m].push_back(partition);
    }
    std::sort(previous[m].begin(), previous[m].end());
  }
  return previous;
}

}  // namespace

std::vector<std::vector<std::int32_t>> assign_as_leader(const Assignor& assignor,
                                                        int num_partitions,
                                                        const std::vector<LeaderView>& members) {
  std::vector<std::vector<std::int32_t>> result(members.size());
  const std::vector<std::size_t> order = model_order(members);
  if (order.empty() || num_partitions < 1) return result;
  std::vector<std::string_view> ids;
  ids.reserve(order.size());
  for (const std::size_t index : order) ids.emplace_back(members[index].member_id);
  std::vector<int> owner;
  const std::vector<std::vector<int>> previous =
      previous_partitions(members, order, num_partitions, owner);
  std::vector<std::vector<int>> assignments(order.size());
  assignor.assign(num_partitions, ids, previous, assignments);
  const bool cooperative = assignor.protocol() == RebalanceProtocol::kCooperative;
  for (std::size_t m = 0; m < order.size(); ++m) {
    for (const int partition : assignments[m]) {
      const int previous_owner = owner[static_cast<std::size_t>(partition)];
      // Cooperative: a partition still owned by another member waits for its revocation.
      if (cooperative && previous_owner != -1 && previous_owner != static_cast<int>(m)) continue;
      result[order[m]].push_back(partition);
    }
  }
  return result;
}

}  // namespace kgroups::broker::playground
