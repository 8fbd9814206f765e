// SPDX-License-Identifier: Apache-2.0
//
// assign_as_leader: the model's assignors behind member ids in any order, and KIP-429's
// withholding of partitions that move under a cooperative assignor.
#include "broker/playground/leader_assignment.h"

#include <gtest/gtest.h>

#include "group/assignor_catalog.h"

namespace kgroups::broker::playground {
namespace {

using Partitions = std::vector<std::int32_t>;

TEST(LeaderAssignmentTest, RangeSplitsInMemberIdOrderWhateverTheJoinOrder) {
  const std::vector<LeaderView> members = {{"m-c", true, {}}, {"m-a", true, {}}, {"m-b", true, {}}};
  const auto result = assign_as_leader(*assignor_named("range"), 6, members);
  EXPECT_EQ(result[1], (Partitions{0, 1}));
  EXPECT_EQ(result[2], (Partitions{2, 3}));
  EXPECT_EQ(result[0], (Partitions{4, 5}));
}

TEST(LeaderAssignmentTest, MembersNotSubscribedGetNothing) {
  const std::vector<LeaderView> members = {{"m-a", true, {}}, {"m-b", false, {}}};
  const auto result = assign_as_leader(*assignor_named("roundrobin"), 3, members);
  EXPECT_EQ(result[0], (Partitions{0, 1, 2}));
  EXPECT_TRUE(result[1].empty());
}

TEST(LeaderAssignmentTest, EagerStickyHandsMovedPartitionsOverAtOnce) {
  const std::vector<LeaderView> members = {{"m-a", true, {0, 1, 2, 3, 4, 5}}, {"m-b", true, {}}};
  const auto result = assign_as_leader(*assignor_named("sticky"), 6, members);
  EXPECT_EQ(result[0], (Partitions{0, 1, 2}));
  EXPECT_EQ(result[1], (Partitions{3, 4, 5}));
}

TEST(LeaderAssignmentTest, CooperativeStickyWithholdsPartitionsStillOwnedByAnotherMember) {
  std::vector<LeaderView> members = {{"m-a", true, {5, 4, 3, 2, 1, 0}}, {"m-b", true, {}}};
  const auto first = assign_as_leader(*assignor_named("cooperative-sticky"), 6, members);
  EXPECT_EQ(first[0], (Partitions{0, 1, 2}));  // keeps these, revokes 3-5
  EXPECT_TRUE(first[1].empty());               // 3-5 wait for their revocation
  members[0].owned = first[0];                 // the second rebalance, after revoking
  const auto second = assign_as_leader(*assignor_named("cooperative-sticky"), 6, members);
  EXPECT_EQ(second[0], (Partitions{0, 1, 2}));
  EXPECT_EQ(second[1], (Partitions{3, 4, 5}));
}

TEST(LeaderAssignmentTest, OwnedPartitionsOutOfRangeOrClaimedTwiceAreIgnored) {
  const std::vector<LeaderView> members = {{"m-a", true, {0, 9, -1}}, {"m-b", true, {0, 1}}};
  const auto result = assign_as_leader(*assignor_named("cooperative-sticky"), 2, members);
  EXPECT_EQ(result[0], (Partitions{0}));  // m-a reported 0 first; 9 and -1 do not exist
  EXPECT_EQ(result[1], (Partitions{1}));  // m-b keeps 1; its claim on 0 is ignored
}

}  // namespace
}  // namespace kgroups::broker::playground
