// SPDX-License-Identifier: Apache-2.0
//
// SyncGroup, Heartbeat and LeaveGroup: assignments, parked followers, fencing by
// member id and generation, and leaving.
#include <gtest/gtest.h>

#include "broker/coordinator/coordinator_test_harness.h"

namespace kgroups::broker {
namespace {

// Three members that have joined generation 3 and not synced yet.
StableGroup join_three_members(CoordinatorHarness& harness) {
  StableGroup group;
  for (int joined = 0; joined < 3; ++joined) {
    JoinCapture newcomer = harness.join(CoordinatorHarness::join_params("g"));
    for (const std::string& id : group.member_ids) {
      harness.join(CoordinatorHarness::join_params("g", id));
    }
    group.member_ids.push_back(newcomer.result().member_id);
    group.generation_id = newcomer.result().generation_id;
  }
  EXPECT_EQ(harness.state("g"), "CompletingRebalance");
  return group;
}

std::vector<MemberAssignment> assignments_for(const std::vector<std::string>& ids) {
  std::vector<MemberAssignment> assignments;
  assignments.reserve(ids.size());
  for (const std::string& id : ids) assignments.push_back({id, bytes("partitions of " + id)});
  return assignments;
}

TEST(CoordinatorSync, FollowersParkUntilTheLeaderSendsTheAssignment) {
  CoordinatorHarness harness;
  StableGroup group = join_three_members(harness);
  SyncCapture second = harness.sync("g", group.generation_id, group.member_ids[1]);
  SyncCapture third = harness.sync("g", group.generation_id, group.member_ids[2]);
  EXPECT_FALSE(second.done());
  EXPECT_FALSE(third.done());
  SyncCapture leader = harness.sync("g", group.generation_id, group.member_ids[0],
                                    assignments_for(group.member_ids));
  EXPECT_EQ(harness.state("g"), "Stable");
  EXPECT_EQ(leader.result().assignment, bytes("partitions of " + group.member_ids[0]));
  EXPECT_EQ(second.result().assignment, bytes("partitions of " + group.member_ids[1]));
  EXPECT_EQ(third.result().assignment, bytes("partitions of " + group.member_ids[2]));
  EXPECT_EQ(third.result().protocol_name, "range");
  EXPECT_EQ(third.result().protocol_type, "consumer");
}

TEST(CoordinatorSync, FollowerSyncingAfterTheLeaderStillGetsItsAssignment) {
  CoordinatorHarness harness;
  StableGroup group = join_three_members(harness);
  harness.sync("g", group.generation_id, group.member_ids[0], assignments_for(group.member_ids));
  SyncCapture late = harness.sync("g", group.generation_id, group.member_ids[2]);
  ASSERT_TRUE(late.done());
  EXPECT_EQ(late.result().error, GroupError::kNone);
  EXPECT_EQ(late.result().assignment, bytes("partitions of " + group.member_ids[2]));
}

TEST(CoordinatorSync, MemberTheLeaderLeftOutGetsAnEmptyAssignment) {
  CoordinatorHarness harness;
  StableGroup group = join_three_members(harness);
  SyncCapture third = harness.sync("g", group.generation_id, group.member_ids[2]);
  std::vector<MemberAssignment> partial = assignments_for({group.member_ids[0], "not-a-member"});
  harness.sync("g", group.generation_id, group.member_ids[0], partial);
  EXPECT_EQ(third.result().error, GroupError::kNone);
  EXPECT_TRUE(third.result().assignment.empty());
}

TEST(CoordinatorSync, StaleGenerationUnknownMemberAndUnknownGroupAreRejected) {
  CoordinatorHarness harness;
  StableGroup group = join_three_members(harness);
  EXPECT_EQ(harness.sync("g", group.generation_id - 1, group.member_ids[1]).result().error,
            GroupError::kIllegalGeneration);
  EXPECT_EQ(harness.sync("g", group.generation_id, "ghost").result().error,
            GroupError::kUnknownMemberId);
  EXPECT_EQ(harness.sync("other", 1, group.member_ids[1]).result().error,
            GroupError::kUnknownMemberId);
  EXPECT_EQ(harness.sync("", 1, group.member_ids[1]).result().error, GroupError::kInvalidGroupId);
}

TEST(CoordinatorSync, SyncWhilePreparingARebalanceGetsRebalanceInProgress) {
  CoordinatorHarness harness;
  StableGroup group = harness.form_stable_group("g", 2);
  harness.join(CoordinatorHarness::join_params("g"));
  EXPECT_EQ(harness.sync("g", group.generation_id, group.member_ids[1]).result().error,
            GroupError::kRebalanceInProgress);
}

TEST(CoordinatorSync, ProtocolTypeOrNameMismatchIsInconsistent) {
  CoordinatorHarness harness;
  StableGroup group = harness.form_stable_group("g", 1);
  SyncGroupParams params;
  params.group_id = "g";
  params.generation_id = group.generation_id;
  params.member_id = group.member_ids[0];
  params.protocol_name = "roundrobin";
  SyncCapture capture;
  harness.coordinator().sync_group(params, capture.callback());
  EXPECT_EQ(capture.result().error, GroupError::kInconsistentGroupProtocol);
  params.protocol_name = "range";
  params.protocol_type = "consumer";
  SyncCapture matching;
  harness.coordinator().sync_group(params, matching.callback());
  EXPECT_EQ(matching.result().error, GroupError::kNone);
}

TEST(CoordinatorSync, ParkedFollowersAreReleasedWhenAMemberLeavesBeforeTheLeaderSyncs) {
  CoordinatorHarness harness;
  StableGroup group = join_three_members(harness);
  SyncCapture second = harness.sync("g", group.generation_id, group.member_ids[1]);
  harness.coordinator().leave_group("g", leaving({group.member_ids[2]}));
  EXPECT_EQ(harness.state("g"), "PreparingRebalance");  // CompletingRebalance -> Preparing
  EXPECT_EQ(second.result().error, GroupError::kRebalanceInProgress);
}

TEST(CoordinatorHeartbeat, AnswerDependsOnTheGroupState) {
  CoordinatorHarness harness;
  StableGroup group = join_three_members(harness);
  GroupCoordinator& coordinator = harness.coordinator();
  const std::string& follower = group.member_ids[1];
  EXPECT_EQ(coordinator.heartbeat("g", group.generation_id, follower, std::nullopt),
            GroupError::kNone);
  harness.sync("g", group.generation_id, group.member_ids[0], assignments_for(group.member_ids));
  EXPECT_EQ(coordinator.heartbeat("g", group.generation_id, follower, std::nullopt),
            GroupError::kNone);
  harness.join(CoordinatorHarness::join_params("g"));
  EXPECT_EQ(coordinator.heartbeat("g", group.generation_id, follower, std::nullopt),
            GroupError::kRebalanceInProgress);
}

TEST(CoordinatorHeartbeat, StaleGenerationUnknownMemberAndEmptyGroupAreRejected) {
  CoordinatorHarness harness;
  StableGroup group = harness.form_stable_group("g", 2);
  GroupCoordinator& coordinator = harness.coordinator();
  EXPECT_EQ(coordinator.heartbeat("g", group.generation_id - 1, group.member_ids[1], std::nullopt),
            GroupError::kIllegalGeneration);
  EXPECT_EQ(coordinator.heartbeat("g", group.generation_id, "ghost", std::nullopt),
            GroupError::kUnknownMemberId);
  EXPECT_EQ(coordinator.heartbeat("nope", 1, group.member_ids[1], std::nullopt),
            GroupError::kUnknownMemberId);
  EXPECT_EQ(coordinator.heartbeat("", 1, group.member_ids[1], std::nullopt),
            GroupError::kInvalidGroupId);
  coordinator.leave_group("g", leaving(group.member_ids));
  EXPECT_EQ(coordinator.heartbeat("g", group.generation_id, group.member_ids[1], std::nullopt),
            GroupError::kUnknownMemberId);
}

TEST(CoordinatorLeave, CleanLeaveRebalancesAtOnce) {
  CoordinatorHarness harness;
  StableGroup group = harness.form_stable_group("g", 2);
  LeaveGroupResult left = harness.coordinator().leave_group("g", leaving({group.member_ids[1]}));
  EXPECT_EQ(left.error, GroupError::kNone);
  EXPECT_EQ(left.member_errors, std::vector<GroupError>{GroupError::kNone});
  EXPECT_EQ(harness.state("g"), "PreparingRebalance");  // Stable -> PreparingRebalance
  // No session timeout passes: the survivor's rejoin completes the rebalance.
  JoinCapture survivor = harness.join(CoordinatorHarness::join_params("g", group.member_ids[0]));
  ASSERT_TRUE(survivor.done());
  EXPECT_EQ(survivor.result().generation_id, group.generation_id + 1);
  EXPECT_EQ(survivor.result().members.size(), 1u);
  EXPECT_TRUE(harness.logged("left the group"));
}

TEST(CoordinatorLeave, LeaderLeavingHandsLeadershipToTheNextMember) {
  CoordinatorHarness harness;
  StableGroup group = harness.form_stable_group("g", 3);
  harness.coordinator().leave_group("g", leaving({group.member_ids[0]}));
  JoinCapture second = harness.join(CoordinatorHarness::join_params("g", group.member_ids[1]));
  JoinCapture third = harness.join(CoordinatorHarness::join_params("g", group.member_ids[2]));
  EXPECT_EQ(third.result().leader_id, group.member_ids[1]);
  EXPECT_EQ(second.result().members.size(), 2u);
}

TEST(CoordinatorLeave, UnknownMembersAndGroupsGetUnknownMemberId) {
  CoordinatorHarness harness;
  StableGroup group = harness.form_stable_group("g", 1);
  LeaveGroupResult result =
      harness.coordinator().leave_group("g", leaving({"ghost", group.member_ids[0]}));
  EXPECT_EQ(result.member_errors,
            (std::vector<GroupError>{GroupError::kUnknownMemberId, GroupError::kNone}));
  EXPECT_EQ(harness.coordinator().leave_group("nope", leaving({"x"})).member_errors,
            std::vector<GroupError>{GroupError::kUnknownMemberId});
  EXPECT_EQ(harness.coordinator().leave_group("", leaving({"x"})).error,
            GroupError::kInvalidGroupId);
}

TEST(CoordinatorLeave, LastMemberLeavingEmptiesTheGroupAndAGroupWithoutOffsetsIsDropped) {
  CoordinatorHarness harness;
  StableGroup group = harness.form_stable_group("g", 1);
  harness.coordinator().leave_group("g", leaving(group.member_ids));
  // PreparingRebalance -> Empty, and with nothing committed, Empty -> Dead.
  EXPECT_EQ(harness.state("g"), "Dead");
  EXPECT_TRUE(harness.coordinator().list_groups().empty());
}

TEST(CoordinatorLeave, MemberParkedInJoinIsAnsweredWhenItLeaves) {
  CoordinatorHarness harness;
  StableGroup group = harness.form_stable_group("g", 2);
  JoinCapture newcomer = harness.join(CoordinatorHarness::join_params("g"));
  JoinCapture leader = harness.join(CoordinatorHarness::join_params("g", group.member_ids[0]));
  harness.coordinator().leave_group("g", leaving({group.member_ids[0]}));
  EXPECT_EQ(leader.result().error, GroupError::kUnknownMemberId);
  EXPECT_FALSE(newcomer.done());  // the follower has not rejoined yet
  harness.coordinator().leave_group("g", leaving({group.member_ids[1]}));
  ASSERT_TRUE(newcomer.done());
  EXPECT_EQ(newcomer.result().leader_id, newcomer.result().member_id);
}

}  // namespace
}  // namespace kgroups::broker
