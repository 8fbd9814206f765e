// SPDX-License-Identifier: Apache-2.0
//
// JoinGroup: the join phase of a rebalance, leader election, protocol selection.
#include <gtest/gtest.h>

#include "broker/coordinator/coordinator_test_harness.h"

namespace kgroups::broker {
namespace {

using std::chrono::milliseconds;

TEST(CoordinatorJoin, FirstMemberJoinCompletesAtOnceAndLeads) {
  CoordinatorHarness harness;
  JoinCapture join = harness.join(CoordinatorHarness::join_params("g"));
  ASSERT_TRUE(join.done());  // no initial delay: Empty -> PreparingRebalance -> CompletingRebalance
  const JoinGroupResult& result = join.result();
  EXPECT_EQ(result.error, GroupError::kNone);
  EXPECT_EQ(result.generation_id, 1);
  EXPECT_EQ(result.protocol_type, "consumer");
  EXPECT_EQ(result.protocol_name, "range");
  EXPECT_EQ(result.member_id.rfind("client-", 0), 0u) << result.member_id;
  EXPECT_EQ(result.leader_id, result.member_id);
  ASSERT_EQ(result.members.size(), 1u);
  EXPECT_EQ(result.members[0], (JoinedMember{result.member_id, bytes("range"), std::nullopt}));
  EXPECT_EQ(harness.state("g"), "CompletingRebalance");
}

TEST(CoordinatorJoin, MemberIdsAreUnique) {
  CoordinatorHarness harness;
  std::string first = harness.join(CoordinatorHarness::join_params("g1")).result().member_id;
  std::string second = harness.join(CoordinatorHarness::join_params("g2")).result().member_id;
  EXPECT_NE(first, second);
}

TEST(CoordinatorJoin, NewMemberParksUntilEveryKnownMemberHasRejoined) {
  CoordinatorHarness harness;
  StableGroup group = harness.form_stable_group("g", 2);
  JoinCapture newcomer = harness.join(CoordinatorHarness::join_params("g"));
  EXPECT_FALSE(newcomer.done());
  EXPECT_EQ(harness.state("g"), "PreparingRebalance");  // Stable -> PreparingRebalance
  JoinCapture leader = harness.join(CoordinatorHarness::join_params("g", group.member_ids[0]));
  EXPECT_FALSE(newcomer.done());
  EXPECT_FALSE(leader.done());
  JoinCapture follower = harness.join(CoordinatorHarness::join_params("g", group.member_ids[1]));
  ASSERT_TRUE(newcomer.done() && leader.done() && follower.done());
  EXPECT_EQ(harness.state("g"), "CompletingRebalance");
  EXPECT_EQ(leader.result().generation_id, group.generation_id + 1);
  EXPECT_EQ(newcomer.result().generation_id, group.generation_id + 1);
  EXPECT_EQ(newcomer.result().leader_id, group.member_ids[0]);
  EXPECT_EQ(leader.result().members.size(), 3u);  // only the leader sees the members
  EXPECT_TRUE(follower.result().members.empty());
  EXPECT_TRUE(newcomer.result().members.empty());
}

TEST(CoordinatorJoin, EmptyGroupIdIsInvalid) {
  CoordinatorHarness harness;
  EXPECT_EQ(harness.join(CoordinatorHarness::join_params("")).result().error,
            GroupError::kInvalidGroupId);
}

TEST(CoordinatorJoin, SessionTimeoutOutsideTheBoundsIsInvalid) {
  CoordinatorConfig config;
  config.min_session_timeout_ms = 1000;
  config.max_session_timeout_ms = 60000;
  CoordinatorHarness harness(config);
  EXPECT_EQ(harness.join(CoordinatorHarness::join_params("g", "", protocols({"range"}), 999))
                .result()
                .error,
            GroupError::kInvalidSessionTimeout);
  EXPECT_EQ(harness.join(CoordinatorHarness::join_params("g", "", protocols({"range"}), 60001))
                .result()
                .error,
            GroupError::kInvalidSessionTimeout);
  EXPECT_EQ(harness.state("g"), "Dead");  // nothing was created
  EXPECT_EQ(harness.join(CoordinatorHarness::join_params("g", "", protocols({"range"}), 1000))
                .result()
                .error,
            GroupError::kNone);
}

TEST(CoordinatorJoin, UnknownMemberIdIsRejected) {
  CoordinatorHarness harness;
  EXPECT_EQ(harness.join(CoordinatorHarness::join_params("none", "ghost")).result().error,
            GroupError::kUnknownMemberId);
  harness.form_stable_group("g", 1);
  EXPECT_EQ(harness.join(CoordinatorHarness::join_params("g", "ghost")).result().error,
            GroupError::kUnknownMemberId);
  EXPECT_EQ(harness.state("g"), "Stable");
}

TEST(CoordinatorJoin, NoAssignorInCommonIsInconsistentAndLeavesTheGroupAlone) {
  CoordinatorHarness harness;
  StableGroup group = harness.form_stable_group("g", 1);
  JoinCapture stranger =
      harness.join(CoordinatorHarness::join_params("g", "", protocols({"roundrobin"})));
  EXPECT_EQ(stranger.result().error, GroupError::kInconsistentGroupProtocol);
  EXPECT_EQ(harness.state("g"), "Stable");
  EXPECT_EQ(
      harness.coordinator().heartbeat("g", group.generation_id, group.member_ids[0], std::nullopt),
      GroupError::kNone);
}

TEST(CoordinatorJoin, DifferentProtocolTypeIsInconsistent) {
  CoordinatorHarness harness;
  harness.form_stable_group("g", 1);
  JoinGroupParams params = CoordinatorHarness::join_params("g");
  params.protocol_type = "connect";
  EXPECT_EQ(harness.join(params).result().error, GroupError::kInconsistentGroupProtocol);
}

TEST(CoordinatorJoin, EmptyProtocolListIsInconsistent) {
  CoordinatorHarness harness;
  EXPECT_EQ(harness.join(CoordinatorHarness::join_params("g", "", {})).result().error,
            GroupError::kInconsistentGroupProtocol);
  EXPECT_EQ(harness.state("g"), "Dead");
}

TEST(CoordinatorJoin, GroupSelectsTheCommonAssignorByVote) {
  CoordinatorHarness harness;
  JoinCapture first =
      harness.join(CoordinatorHarness::join_params("g", "", protocols({"range", "roundrobin"})));
  std::string first_id = first.result().member_id;
  EXPECT_EQ(first.result().protocol_name, "range");
  JoinCapture second =
      harness.join(CoordinatorHarness::join_params("g", "", protocols({"roundrobin", "range"})));
  JoinCapture third =
      harness.join(CoordinatorHarness::join_params("g", "", protocols({"roundrobin"})));
  JoinCapture rejoin = harness.join(
      CoordinatorHarness::join_params("g", first_id, protocols({"range", "roundrobin"})));
  ASSERT_TRUE(rejoin.done());
  EXPECT_EQ(rejoin.result().protocol_name, "roundrobin");
  EXPECT_EQ(second.result().protocol_name, "roundrobin");
  EXPECT_EQ(third.result().protocol_name, "roundrobin");
}

TEST(CoordinatorJoin, StableFollowerRejoiningUnchangedGetsTheCurrentGeneration) {
  CoordinatorHarness harness;
  StableGroup group = harness.form_stable_group("g", 2);
  JoinCapture rejoin = harness.join(CoordinatorHarness::join_params("g", group.member_ids[1]));
  ASSERT_TRUE(rejoin.done());
  EXPECT_EQ(rejoin.result().error, GroupError::kNone);
  EXPECT_EQ(rejoin.result().generation_id, group.generation_id);
  EXPECT_EQ(harness.state("g"), "Stable");
}

TEST(CoordinatorJoin, StableLeaderRejoiningStartsARebalance) {
  CoordinatorHarness harness;
  StableGroup group = harness.form_stable_group("g", 2);
  JoinCapture leader = harness.join(CoordinatorHarness::join_params("g", group.member_ids[0]));
  EXPECT_FALSE(leader.done());
  EXPECT_EQ(harness.state("g"), "PreparingRebalance");
  harness.join(CoordinatorHarness::join_params("g", group.member_ids[1]));
  EXPECT_EQ(leader.result().generation_id, group.generation_id + 1);
}

TEST(CoordinatorJoin, StableMemberWithChangedMetadataStartsARebalance) {
  CoordinatorHarness harness;
  StableGroup group = harness.form_stable_group("g", 2);
  JoinGroupParams params = CoordinatorHarness::join_params("g", group.member_ids[1]);
  params.protocols[0].metadata = bytes("subscribed to another topic");
  JoinCapture follower = harness.join(params);
  EXPECT_FALSE(follower.done());
  EXPECT_EQ(harness.state("g"), "PreparingRebalance");
  JoinCapture leader = harness.join(CoordinatorHarness::join_params("g", group.member_ids[0]));
  ASSERT_TRUE(leader.done());
  EXPECT_EQ(leader.result().members[1].metadata, bytes("subscribed to another topic"));
}

TEST(CoordinatorJoin, CompletingRebalanceResendsTheJoinResultForUnchangedMetadata) {
  CoordinatorHarness harness;
  JoinCapture first = harness.join(CoordinatorHarness::join_params("g"));
  std::string id = first.result().member_id;
  JoinCapture again = harness.join(CoordinatorHarness::join_params("g", id));
  ASSERT_TRUE(again.done());
  EXPECT_EQ(again.result().generation_id, 1);
  EXPECT_EQ(again.result().members.size(), 1u);  // it is the leader
  EXPECT_EQ(harness.state("g"), "CompletingRebalance");
}

// Two members joined generation 2 and have not synced yet.
struct JoinedPair {
  std::string leader_id;
  std::string follower_id;
};

JoinedPair join_two_members(CoordinatorHarness& harness) {
  std::string leader_id = harness.join(CoordinatorHarness::join_params("g")).result().member_id;
  JoinCapture follower = harness.join(CoordinatorHarness::join_params("g"));
  harness.join(CoordinatorHarness::join_params("g", leader_id));
  EXPECT_EQ(follower.result().generation_id, 2);
  return JoinedPair{leader_id, follower.result().member_id};
}

TEST(CoordinatorJoin, CompletingRebalanceJoinFromANewMemberStartsARebalance) {
  CoordinatorHarness harness;
  JoinedPair pair = join_two_members(harness);
  SyncCapture follower_sync = harness.sync("g", 2, pair.follower_id);
  EXPECT_FALSE(follower_sync.done());
  JoinCapture newcomer = harness.join(CoordinatorHarness::join_params("g"));
  EXPECT_EQ(harness.state("g"), "PreparingRebalance");
  EXPECT_EQ(follower_sync.result().error, GroupError::kRebalanceInProgress);
  EXPECT_EQ(harness.sync("g", 2, pair.leader_id).result().error, GroupError::kRebalanceInProgress);
  EXPECT_FALSE(newcomer.done());
}

TEST(CoordinatorJoin, CompletingRebalanceJoinWithChangedMetadataStartsARebalance) {
  CoordinatorHarness harness;
  JoinedPair pair = join_two_members(harness);
  JoinGroupParams params = CoordinatorHarness::join_params("g", pair.follower_id);
  params.protocols[0].metadata = bytes("changed");
  JoinCapture follower = harness.join(params);
  EXPECT_FALSE(follower.done());
  EXPECT_EQ(harness.state("g"), "PreparingRebalance");
  harness.join(CoordinatorHarness::join_params("g", pair.leader_id));
  EXPECT_EQ(follower.result().generation_id, 3);
}

TEST(CoordinatorJoin, ASecondJoinWhileParkedSupersedesTheFirst) {
  CoordinatorHarness harness;
  JoinedPair pair = join_two_members(harness);
  JoinCapture newcomer = harness.join(CoordinatorHarness::join_params("g"));
  JoinCapture first = harness.join(CoordinatorHarness::join_params("g", pair.follower_id));
  JoinCapture second = harness.join(CoordinatorHarness::join_params("g", pair.follower_id));
  EXPECT_EQ(first.result().error, GroupError::kRebalanceInProgress);
  EXPECT_FALSE(second.done());
  harness.join(CoordinatorHarness::join_params("g", pair.leader_id));
  EXPECT_EQ(second.result().generation_id, 3);
  EXPECT_EQ(first.calls(), 1u);
}

TEST(CoordinatorJoin, VersionFourJoinFirstGetsMemberIdRequired) {
  CoordinatorHarness harness;
  JoinGroupParams params = CoordinatorHarness::join_params("g");
  params.require_known_member_id = true;
  JoinCapture first = harness.join(params);
  EXPECT_EQ(first.result().error, GroupError::kMemberIdRequired);
  EXPECT_EQ(first.result().member_id.rfind("client-", 0), 0u);
  EXPECT_EQ(harness.state("g"), "Empty");
  params.member_id = first.result().member_id;
  JoinCapture second = harness.join(params);
  EXPECT_EQ(second.result().error, GroupError::kNone);
  EXPECT_EQ(second.result().member_id, params.member_id);
  EXPECT_EQ(second.result().leader_id, params.member_id);
}

TEST(CoordinatorJoin, PendingMemberIdHoldsTheJoinPhaseUntilItJoinsOrExpires) {
  CoordinatorHarness harness;
  StableGroup group = harness.form_stable_group("g", 1);
  JoinGroupParams pending = CoordinatorHarness::join_params("g", "", protocols({"range"}), 6000);
  pending.require_known_member_id = true;
  std::string pending_id = harness.join(pending).result().member_id;
  JoinCapture newcomer = harness.join(CoordinatorHarness::join_params("g"));
  JoinCapture leader = harness.join(CoordinatorHarness::join_params("g", group.member_ids[0]));
  EXPECT_FALSE(leader.done());  // the pending id may still join
  harness.advance(milliseconds(6000));
  EXPECT_TRUE(harness.logged("pending member " + pending_id));
  ASSERT_TRUE(leader.done());
  EXPECT_EQ(leader.result().members.size(), 2u);
  pending.member_id = pending_id;
  EXPECT_EQ(harness.join(pending).result().error, GroupError::kUnknownMemberId);
}

TEST(CoordinatorJoin, InitialDelayWaitsForMoreMembersOnTheFirstRebalance) {
  CoordinatorConfig config;
  config.initial_rebalance_delay_ms = 3000;
  CoordinatorHarness harness(config);
  JoinCapture first = harness.join(CoordinatorHarness::join_params("g"));
  EXPECT_FALSE(first.done());
  harness.advance(milliseconds(2000));
  JoinCapture second = harness.join(CoordinatorHarness::join_params("g"));
  harness.advance(milliseconds(1000));  // a member arrived during the delay: wait again
  EXPECT_FALSE(first.done());
  harness.advance(milliseconds(2999));
  EXPECT_FALSE(first.done());
  harness.advance(milliseconds(1));
  ASSERT_TRUE(first.done() && second.done());
  EXPECT_EQ(first.result().members.size(), 2u);
  EXPECT_EQ(first.result().generation_id, 1);
}

TEST(CoordinatorJoin, InitialDelayIsCappedByTheRebalanceTimeout) {
  CoordinatorConfig config;
  config.initial_rebalance_delay_ms = 3000;
  CoordinatorHarness harness(config);
  JoinCapture first =
      harness.join(CoordinatorHarness::join_params("g", "", protocols({"range"}), 10000, 4000));
  harness.advance(milliseconds(1000));
  harness.join(CoordinatorHarness::join_params("g", "", protocols({"range"}), 10000, 4000));
  harness.advance(milliseconds(2000));  // first delay ends at 3000 ms; 1000 ms remain
  EXPECT_FALSE(first.done());
  harness.advance(milliseconds(1000));
  EXPECT_TRUE(first.done());
}

TEST(CoordinatorJoin, RebalancesAfterTheFirstAreNotDelayed) {
  CoordinatorConfig config;
  config.initial_rebalance_delay_ms = 3000;
  CoordinatorHarness harness(config);
  JoinCapture first = harness.join(CoordinatorHarness::join_params("g"));
  harness.advance(milliseconds(3000));
  std::string leader_id = first.result().member_id;
  JoinCapture second = harness.join(CoordinatorHarness::join_params("g"));
  harness.join(CoordinatorHarness::join_params("g", leader_id));
  EXPECT_TRUE(second.done());
}

}  // namespace
}  // namespace kgroups::broker
