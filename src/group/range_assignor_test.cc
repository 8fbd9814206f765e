// SPDX-License-Identifier: Apache-2.0
#include "group/range_assignor.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace kgroups {
namespace {

std::vector<std::vector<int>> assign(int partitions, const std::vector<std::string_view>& ids) {
  std::vector<std::vector<int>> result(ids.size(), std::vector<int>{99});  // stale contents
  RangeAssignor().assign(partitions, ids, result);
  return result;
}

TEST(RangeAssignor, SplitsEvenlyIntoConsecutiveRanges) {
  EXPECT_EQ(assign(6, {"A", "B", "C"}), (std::vector<std::vector<int>>{{0, 1}, {2, 3}, {4, 5}}));
}

TEST(RangeAssignor, GivesFirstMembersTheExtraPartition) {
  EXPECT_EQ(assign(7, {"A", "B", "C"}), (std::vector<std::vector<int>>{{0, 1, 2}, {3, 4}, {5, 6}}));
}

TEST(RangeAssignor, LeavesMembersBeyondThePartitionCountIdle) {
  EXPECT_EQ(assign(2, {"A", "B", "C"}), (std::vector<std::vector<int>>{{0}, {1}, {}}));
}

TEST(RangeAssignor, AssignsEveryPartitionOnceForLargeGroups) {
  std::vector<std::string> names;
  names.reserve(100);
  for (int i = 0; i < 100; ++i) names.push_back("member-" + std::to_string(1000 + i));
  const std::vector<std::string_view> ids(names.begin(), names.end());
  const auto result = assign(1000, ids);
  int next = 0;
  for (const auto& partitions : result) {
    EXPECT_EQ(partitions.size(), 10U);
    for (const int partition : partitions) EXPECT_EQ(partition, next++);
  }
  EXPECT_EQ(next, 1000);
}

TEST(RangeAssignor, IsNamedRange) { EXPECT_EQ(RangeAssignor().name(), "range"); }

}  // namespace
}  // namespace kgroups
