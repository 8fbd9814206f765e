// SPDX-License-Identifier: Apache-2.0
#include "group/sticky_assignor.h"

#include <gtest/gtest.h>

#include <string_view>
#include <vector>

namespace kgroups {
namespace {

using Assignment = std::vector<std::vector<int>>;

Assignment sticky(int partitions, std::vector<std::string_view> ids, const Assignment& previous) {
  Assignment result(ids.size());
  StickyAssignor(RebalanceProtocol::kEager).assign(partitions, ids, previous, result);
  return result;
}

TEST(StickyAssignor, FormsConsecutiveRangesFromNothing) {
  EXPECT_EQ(sticky(6, {"A", "B", "C"}, {}), (Assignment{{0, 1}, {2, 3}, {4, 5}}));
}

TEST(StickyAssignor, KeepsTheLowestPreviousPartitionsUpToTheShare) {
  // SPEC.md's example: A owned everything, B joins, then C joins.
  EXPECT_EQ(sticky(6, {"A", "B"}, {{0, 1, 2, 3, 4, 5}, {}}), (Assignment{{0, 1, 2}, {3, 4, 5}}));
  EXPECT_EQ(sticky(6, {"A", "B", "C"}, {{0, 1, 2}, {3, 4, 5}, {}}),
            (Assignment{{0, 1}, {3, 4}, {2, 5}}));
}

TEST(StickyAssignor, GivesTheLargerSharesToTheLargestPreviousOwners) {
  // 7 over 3: one member gets 3. B owned 4, so B keeps 3 and only 4 moves (to A).
  EXPECT_EQ(sticky(7, {"A", "B", "C"}, {{0}, {1, 2, 3, 4}, {5, 6}}),
            (Assignment{{0, 4}, {1, 2, 3}, {5, 6}}));
  // Had A the larger share instead, B would give up two partitions.
  EXPECT_EQ(sticky(7, {"A", "B", "C"}, {{0, 1, 2}, {3, 4, 5, 6}, {}}),
            (Assignment{{0, 1}, {3, 4, 5}, {2, 6}}));
}

TEST(StickyAssignor, DealsTheDepartedMembersPartitionsToTheShortestInIdOrder) {
  // C left with [2, 5]: A and B each need one more.
  EXPECT_EQ(sticky(6, {"A", "B"}, {{0, 1}, {3, 4}}), (Assignment{{0, 1, 2}, {3, 4, 5}}));
}

TEST(StickyAssignor, NamesItsProtocol) {
  EXPECT_EQ(StickyAssignor(RebalanceProtocol::kEager).name(), "sticky");
  EXPECT_EQ(StickyAssignor(RebalanceProtocol::kCooperative).name(), "cooperative-sticky");
  EXPECT_EQ(StickyAssignor(RebalanceProtocol::kCooperative).protocol(),
            RebalanceProtocol::kCooperative);
}

}  // namespace
}  // namespace kgroups
