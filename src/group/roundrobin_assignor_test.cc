// SPDX-License-Identifier: Apache-2.0
#include "group/roundrobin_assignor.h"

#include <gtest/gtest.h>

#include <string_view>
#include <vector>

namespace kgroups {
namespace {

std::vector<std::vector<int>> deal(int partitions, std::vector<std::string_view> ids) {
  std::vector<std::vector<int>> result(ids.size());
  RoundRobinAssignor().assign(partitions, ids, result);
  return result;
}

TEST(RoundRobinAssignor, DealsPartitionsInTurnOverMembersInIdOrder) {
  EXPECT_EQ(deal(7, {"A", "B", "C"}), (std::vector<std::vector<int>>{{0, 3, 6}, {1, 4}, {2, 5}}));
}

TEST(RoundRobinAssignor, LeavesMembersBeyondThePartitionCountIdle) {
  EXPECT_EQ(deal(2, {"A", "B", "C"}), (std::vector<std::vector<int>>{{0}, {1}, {}}));
}

TEST(RoundRobinAssignor, IsNamedRoundrobinAndEager) {
  EXPECT_EQ(RoundRobinAssignor().name(), "roundrobin");
  EXPECT_EQ(RoundRobinAssignor().protocol(), RebalanceProtocol::kEager);
}

}  // namespace
}  // namespace kgroups
