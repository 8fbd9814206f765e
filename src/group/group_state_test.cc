// SPDX-License-Identifier: Apache-2.0
#include "group/group_state.h"

#include <gtest/gtest.h>

#include "group/range_assignor.h"
#include "group/sticky_assignor.h"

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

namespace kgroups {
namespace {

class FixedEndOffsets final : public EndOffsets {
 public:
  [[nodiscard]] std::int64_t end_offset(int partition) const override { return 10 + partition; }
};

TEST(GroupStatePolicy, CooperativeKeepsPositionsOfKeptPartitionsOnly) {
  const StickyAssignor cooperative(RebalanceProtocol::kCooperative);
  GroupState group(4, GroupPolicy{&cooperative, OffsetReset::kEarliest, nullptr});
  group.join("A");
  group.set_committed(3, 1);
  group.find("A")->positions = {5, 6, 7, 8};
  group.join("B");  // A keeps 0, 1; B takes 2, 3
  EXPECT_EQ(group.find("A")->positions, (std::vector<std::int64_t>{5, 6}));
  EXPECT_EQ(group.find("B")->positions, (std::vector<std::int64_t>{0, 1}));
}

TEST(GroupStatePolicy, LatestStartsUncommittedPartitionsAtTheEndOffset) {
  const RangeAssignor range;
  const FixedEndOffsets ends;
  GroupState group(3, GroupPolicy{&range, OffsetReset::kLatest, &ends});
  group.set_committed(1, 4);
  group.join("A");
  EXPECT_EQ(group.find("A")->positions, (std::vector<std::int64_t>{10, 4, 12}));
}

TEST(GroupStatePolicy, NoneLeavesPositionsUnsetUntilACommitAppears) {
  const RangeAssignor range;
  GroupState group(2, GroupPolicy{&range, OffsetReset::kNone, nullptr});
  group.join("A");
  Member& a = *group.find("A");
  EXPECT_EQ(a.positions, (std::vector<std::int64_t>{kNoPosition, kNoPosition}));
  std::vector<int> unresolved;
  group.set_committed(1, 3);
  EXPECT_FALSE(group.resolve_positions(a, unresolved));
  EXPECT_EQ(unresolved, (std::vector<int>{0}));
  EXPECT_EQ(a.positions[1], kNoPosition);  // nothing changed
  group.commit_positions(a);               // skips both: no positions yet
  EXPECT_FALSE(group.has_committed(0));
  group.set_committed(0, 2);
  unresolved.clear();
  EXPECT_TRUE(group.resolve_positions(a, unresolved));
  EXPECT_EQ(a.positions, (std::vector<std::int64_t>{2, 3}));
}

TEST(GroupStatePolicy, CountsGenerationsInTheHistory) {
  const RangeAssignor range;
  GroupState group(2, range);
  group.join("A");
  group.join("B");
  group.leave("A");
  group.leave("Z");  // not a member: no rebalance
  const std::vector<Rebalance> history = group.rebalances();
  ASSERT_EQ(history.size(), 3U);
  EXPECT_EQ(history[2].generation, 3);
  EXPECT_EQ(history[2].cause, "leave");
  EXPECT_EQ(history[2].consumer, "A");
}

}  // namespace
}  // namespace kgroups
