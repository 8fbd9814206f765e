// SPDX-License-Identifier: Apache-2.0
#include "group_lag.h"

#include <gtest/gtest.h>

namespace kgroups::cli {
namespace {

GroupDescription group_with_member_owning(const std::vector<AssignedTopic>& assignment) {
  GroupDescription group{"g", "Stable", "consumer", "range", {}};
  group.members.push_back(
      GroupMemberDescription{"m-1", std::nullopt, "client-1", "/127.0.0.1", assignment});
  return group;
}

TEST(GroupLag, IsTheEndOffsetMinusTheCommittedOffset) {
  const GroupDescription group = group_with_member_owning({{"t", {0, 1}}});
  const PartitionOffsets committed{{{"t", 0}, 3}, {{"t", 1}, 10}};
  const PartitionOffsets end{{{"t", 0}, 10}, {{"t", 1}, 10}};
  const std::vector<GroupLagRow> rows = group_lag_rows(group, committed, end);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].lag, 7);
  EXPECT_EQ(rows[1].lag, 0);
  EXPECT_EQ(rows[0].member_id, "m-1");
  EXPECT_EQ(rows[0].client_id, "client-1");
  EXPECT_EQ(rows[0].host, "/127.0.0.1");
}

TEST(GroupLag, AnAssignedPartitionWithoutACommitHasNoLag) {
  const GroupDescription group = group_with_member_owning({{"t", {2}}});
  const std::vector<GroupLagRow> rows = group_lag_rows(group, {}, {{{"t", 2}, 5}});
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_FALSE(rows[0].committed_offset.has_value());
  EXPECT_EQ(rows[0].end_offset, 5);
  EXPECT_FALSE(rows[0].lag.has_value());
}

TEST(GroupLag, ACommittedPartitionNoMemberOwnsHasNoMember) {
  const GroupDescription group{"g", "Empty", "consumer", "", {}};
  const std::vector<GroupLagRow> rows = group_lag_rows(group, {{{"u", 0}, 1}}, {{{"u", 0}, 4}});
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].lag, 3);
  EXPECT_TRUE(rows[0].member_id.empty());
}

TEST(GroupLag, ACommitPastTheEndShowsNoNegativeLag) {
  const GroupDescription group{"g", "Empty", "consumer", "", {}};
  const std::vector<GroupLagRow> rows = group_lag_rows(group, {{{"t", 0}, 9}}, {{{"t", 0}, 4}});
  EXPECT_EQ(rows.at(0).lag, 0);
}

TEST(GroupLag, ListsCommittedAndAssignedPartitionsOnceInOrder) {
  const GroupDescription group = group_with_member_owning({{"b", {1, 0}}, {"a", {0}}});
  const PartitionOffsets committed{{{"a", 0}, 1}, {{"c", 3}, 2}};
  const std::vector<TopicPartitionId> partitions = group_partitions(group, committed);
  const std::vector<TopicPartitionId> expected{{"a", 0}, {"b", 0}, {"b", 1}, {"c", 3}};
  EXPECT_EQ(partitions, expected);
}

}  // namespace
}  // namespace kgroups::cli
