// SPDX-License-Identifier: Apache-2.0
#include "group/group_state.h"

#include <gtest/gtest.h>

#include "group/range_assignor.h"

namespace kgroups {
namespace {

class GroupStateTest : public ::testing::Test {
 protected:
  RangeAssignor assignor_;
  GroupState group_{6, assignor_};
};

TEST_F(GroupStateTest, KeepsMembersSortedById) {
  group_.join("C");
  group_.join("A");
  group_.join("B");
  ASSERT_EQ(group_.members().size(), 3U);
  EXPECT_EQ(group_.members()[0].id, "A");
  EXPECT_EQ(group_.members()[2].id, "C");
  EXPECT_EQ(group_.find("C")->partitions, (std::vector<int>{4, 5}));
}

TEST_F(GroupStateTest, JoinOfAMemberAndLeaveOfAStrangerChangeNothing) {
  EXPECT_TRUE(group_.join("A"));
  group_.find("A")->positions[0] = 5;
  EXPECT_FALSE(group_.join("A"));
  EXPECT_FALSE(group_.leave("Z"));
  EXPECT_EQ(group_.find("A")->positions[0], 5);
}

TEST_F(GroupStateTest, RebalanceRestartsEveryMemberFromCommittedOffsets) {
  group_.join("A");
  group_.set_committed(0, 3);
  Member* a = group_.find("A");
  a->positions[0] = 7;
  a->positions[1] = 9;
  group_.join("B");
  a = group_.find("A");
  EXPECT_EQ(a->partitions, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(a->positions, (std::vector<std::int64_t>{3, 0, 0}));
}

TEST_F(GroupStateTest, CommitPositionsStoresEachAssignedPosition) {
  group_.join("A");
  group_.join("B");
  Member* b = group_.find("B");
  b->positions = {4, 5, 6};
  group_.commit_positions(*b);
  EXPECT_EQ(group_.committed(3), 4);
  EXPECT_EQ(group_.committed(5), 6);
  EXPECT_EQ(group_.committed(0), 0);
}

TEST_F(GroupStateTest, CommittedOffsetsOutliveTheMembers) {
  group_.join("A");
  group_.set_committed(2, 8);
  group_.leave("A");
  EXPECT_TRUE(group_.members().empty());
  group_.join("B");
  EXPECT_EQ(group_.find("B")->positions[2], 8);
}

}  // namespace
}  // namespace kgroups
