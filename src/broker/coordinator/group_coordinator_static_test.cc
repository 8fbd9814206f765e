// SPDX-License-Identifier: Apache-2.0
//
// Static membership (KIP-345): restarts without rebalances, fencing of replaced
// member ids, leaders, expiry, batch LeaveGroup, DescribeGroups, and the limits.
#include <gtest/gtest.h>

#include <algorithm>

#include "broker/coordinator/coordinator_test_harness.h"

namespace kgroups::broker {
namespace {

using std::chrono::milliseconds;

JoinGroupParams static_params(const std::string& instance_id, std::string member_id = "",
                              std::vector<GroupProtocol> member_protocols = protocols({"range"})) {
  JoinGroupParams params =
      CoordinatorHarness::join_params("g", std::move(member_id), std::move(member_protocols));
  params.group_instance_id = instance_id;
  return params;
}

SyncCapture sync_static(CoordinatorHarness& harness, std::int32_t generation_id,
                        const std::string& member_id, const std::string& instance_id,
                        std::vector<MemberAssignment> assignments = {}) {
  SyncGroupParams params;
  params.group_id = "g";
  params.generation_id = generation_id;
  params.member_id = member_id;
  params.group_instance_id = instance_id;
  params.assignments = std::move(assignments);
  SyncCapture capture;
  harness.coordinator().sync_group(std::move(params), capture.callback());
  return capture;
}

// A Stable group "g" of static members, one per instance id, joined in that order
// (the first leads); the leader assigns "assignment-<instance id>" to each.
StableGroup form_static_group(
    CoordinatorHarness& harness, const std::vector<std::string>& instance_ids,
    const std::vector<GroupProtocol>& member_protocols = protocols({"range"})) {
  StableGroup group;
  for (std::size_t joined = 0; joined < instance_ids.size(); ++joined) {
    std::vector<JoinCapture> captures;
    captures.push_back(harness.join(static_params(instance_ids[joined], "", member_protocols)));
    for (std::size_t i = 0; i < joined; ++i) {
      captures.push_back(
          harness.join(static_params(instance_ids[i], group.member_ids[i], member_protocols)));
    }
    for (JoinCapture& capture : captures) {
      EXPECT_EQ(capture.result().error, GroupError::kNone);
      group.generation_id = capture.result().generation_id;
    }
    group.member_ids.push_back(captures.front().result().member_id);
  }
  std::vector<MemberAssignment> assignments;
  for (std::size_t i = 0; i < instance_ids.size(); ++i) {
    assignments.push_back({group.member_ids[i], bytes("assignment-" + instance_ids[i])});
  }
  EXPECT_EQ(
      sync_static(harness, group.generation_id, group.member_ids[0], instance_ids[0], assignments)
          .result()
          .error,
      GroupError::kNone);
  for (std::size_t i = 1; i < instance_ids.size(); ++i) {
    EXPECT_EQ(sync_static(harness, group.generation_id, group.member_ids[i], instance_ids[i])
                  .result()
                  .error,
              GroupError::kNone);
  }
  EXPECT_EQ(harness.state("g"), "Stable");
  return group;
}

std::size_t rebalances_logged(const CoordinatorHarness& harness) {
  return static_cast<std::size_t>(
      std::count_if(harness.log().begin(), harness.log().end(), [](const std::string& line) {
        return line.find("preparing a rebalance") != std::string::npos;
      }));
}

TEST(StaticMembership, RestartWithinSessionTimeoutGetsItsAssignmentBackWithoutRebalance) {
  CoordinatorHarness harness;
  StableGroup group = form_static_group(harness, {"a", "b"});
  const std::size_t rebalances = rebalances_logged(harness);
  JoinCapture rejoin = harness.join(static_params("b"));
  ASSERT_TRUE(rejoin.done());
  const JoinGroupResult& result = rejoin.result();
  EXPECT_EQ(result.error, GroupError::kNone);
  EXPECT_EQ(result.generation_id, group.generation_id);
  EXPECT_NE(result.member_id, group.member_ids[1]);
  EXPECT_EQ(result.member_id.rfind("b-", 0), 0u);  // instanceId-UUID, as Kafka forms it
  EXPECT_EQ(result.leader_id, group.member_ids[0]);
  EXPECT_TRUE(result.members.empty());
  EXPECT_EQ(harness.state("g"), "Stable");
  EXPECT_EQ(rebalances_logged(harness), rebalances);
  EXPECT_EQ(harness.coordinator().heartbeat("g", group.generation_id, group.member_ids[0], "a"),
            GroupError::kNone);
  SyncCapture sync = sync_static(harness, group.generation_id, result.member_id, "b");
  EXPECT_EQ(sync.result().error, GroupError::kNone);
  EXPECT_EQ(sync.result().assignment, bytes("assignment-b"));
  EXPECT_EQ(harness.coordinator().heartbeat("g", group.generation_id, result.member_id, "b"),
            GroupError::kNone);
}

TEST(StaticMembership, ReplacedMemberIdIsFencedOnEveryCall) {
  CoordinatorHarness harness;
  StableGroup group = form_static_group(harness, {"a", "b"});
  const std::string old_id = group.member_ids[1];
  ASSERT_EQ(harness.join(static_params("b")).result().error, GroupError::kNone);
  GroupCoordinator& coordinator = harness.coordinator();
  EXPECT_EQ(harness.join(static_params("b", old_id)).result().error, GroupError::kFencedInstanceId);
  EXPECT_EQ(sync_static(harness, group.generation_id, old_id, "b").result().error,
            GroupError::kFencedInstanceId);
  EXPECT_EQ(coordinator.heartbeat("g", group.generation_id, old_id, "b"),
            GroupError::kFencedInstanceId);
  OffsetCommitParams commit{"g", group.generation_id, old_id, {{{"orders", 0}, {5, ""}}}, "b"};
  EXPECT_EQ(coordinator.commit_offsets(commit).error, GroupError::kFencedInstanceId);
  EXPECT_EQ(coordinator.leave_group("g", {{old_id, "b"}}).member_errors,
            std::vector<GroupError>{GroupError::kFencedInstanceId});
  // Fencing changed nothing: no offset, the group is still Stable with both members.
  EXPECT_EQ(coordinator.fetch_offsets("g", std::nullopt).size(), 0u);
  EXPECT_EQ(harness.state("g"), "Stable");
  EXPECT_EQ(coordinator.describe_group("g").members.size(), 2u);
}

TEST(StaticMembership, ReplacementFencesTheOldMemberIdsParkedCalls) {
  CoordinatorHarness harness;
  StableGroup group = form_static_group(harness, {"a", "b"});
  // A rebalance: "a" (the leader) rejoins, then "b"; both get the next generation.
  JoinCapture leader = harness.join(static_params("a", group.member_ids[0]));
  JoinCapture follower = harness.join(static_params("b", group.member_ids[1]));
  ASSERT_EQ(follower.result().error, GroupError::kNone);
  ASSERT_EQ(harness.state("g"), "CompletingRebalance");
  SyncCapture parked =
      sync_static(harness, follower.result().generation_id, group.member_ids[1], "b");
  ASSERT_FALSE(parked.done());
  // A second instance "b" starts while the first still waits for its assignment.
  JoinCapture replacement = harness.join(static_params("b"));
  EXPECT_EQ(parked.result().error, GroupError::kFencedInstanceId);
  // In CompletingRebalance the leader may be assigning to the old id: rebalance.
  EXPECT_EQ(harness.state("g"), "PreparingRebalance");
  EXPECT_FALSE(replacement.done());
  JoinCapture leader_again = harness.join(static_params("a", group.member_ids[0]));
  EXPECT_EQ(replacement.result().error, GroupError::kNone);
  EXPECT_EQ(replacement.result().generation_id, follower.result().generation_id + 1);
  EXPECT_EQ(leader_again.result().members.size(), 2u);
}

TEST(StaticMembership, ReplacedLeaderStaysLeaderAndIsNotAskedToAssign) {
  CoordinatorHarness harness;
  StableGroup group = form_static_group(harness, {"a", "b"});
  JoinCapture rejoin = harness.join(static_params("a"));
  const JoinGroupResult& result = rejoin.result();
  ASSERT_EQ(result.error, GroupError::kNone);
  EXPECT_EQ(result.generation_id, group.generation_id);
  // Before JoinGroup v9 the result names the old id, so the client does not assign.
  EXPECT_EQ(result.leader_id, group.member_ids[0]);
  EXPECT_NE(result.member_id, result.leader_id);
  EXPECT_TRUE(result.members.empty());
  EXPECT_FALSE(result.skip_assignment);
  EXPECT_EQ(harness.state("g"), "Stable");
  EXPECT_EQ(sync_static(harness, group.generation_id, result.member_id, "a").result().assignment,
            bytes("assignment-a"));
  // The group's leader is the new id: the next rebalance hands it the members.
  JoinCapture next_leader = harness.join(static_params("a", result.member_id));
  JoinCapture next_follower = harness.join(static_params("b", group.member_ids[1]));
  EXPECT_EQ(next_leader.result().leader_id, result.member_id);
  EXPECT_EQ(next_leader.result().members.size(), 2u);
  EXPECT_EQ(next_follower.result().leader_id, result.member_id);
}

TEST(StaticMembership, ReplacedLeaderWithSkipAssignmentIsToldItLeadsAndToSkip) {
  CoordinatorHarness harness;
  StableGroup group = form_static_group(harness, {"a", "b"});
  JoinGroupParams params = static_params("a");
  params.supports_skip_assignment = true;
  JoinCapture rejoin = harness.join(std::move(params));
  const JoinGroupResult& result = rejoin.result();
  ASSERT_EQ(result.error, GroupError::kNone);
  EXPECT_EQ(result.generation_id, group.generation_id);
  EXPECT_EQ(result.leader_id, result.member_id);
  EXPECT_TRUE(result.skip_assignment);
  ASSERT_EQ(result.members.size(), 2u);
  EXPECT_EQ(result.members[0].group_instance_id, std::optional<std::string>("a"));
  EXPECT_EQ(harness.state("g"), "Stable");
}

TEST(StaticMembership, RestartThatChangesTheSelectedProtocolRebalances) {
  CoordinatorHarness harness;
  StableGroup group = form_static_group(harness, {"a", "b"}, protocols({"range", "roundrobin"}));
  ASSERT_EQ(harness.coordinator().describe_group("g").protocol_name, "range");
  // "range" and "roundrobin" are both common, but "a" now only offers "roundrobin".
  JoinCapture rejoin = harness.join(static_params("a", "", protocols({"roundrobin"})));
  EXPECT_FALSE(rejoin.done());
  EXPECT_EQ(harness.state("g"), "PreparingRebalance");
  EXPECT_EQ(harness.coordinator().heartbeat("g", group.generation_id, group.member_ids[1], "b"),
            GroupError::kRebalanceInProgress);
}

TEST(StaticMembership, RestartWithNewMetadataForTheSameProtocolKeepsTheGeneration) {
  // Kafka decides by the selected protocol only, not by the member's metadata.
  CoordinatorHarness harness;
  StableGroup group = form_static_group(harness, {"a", "b"});
  JoinCapture rejoin =
      harness.join(static_params("b", "", {GroupProtocol{"range", bytes("new topics")}}));
  EXPECT_EQ(rejoin.result().error, GroupError::kNone);
  EXPECT_EQ(rejoin.result().generation_id, group.generation_id);
  EXPECT_EQ(harness.state("g"), "Stable");
}

TEST(StaticMembership, NewStaticMemberIsNotAskedForAMemberId) {
  CoordinatorHarness harness;
  JoinGroupParams params = static_params("a");
  params.require_known_member_id = true;  // JoinGroup v4+
  JoinCapture joined = harness.join(std::move(params));
  EXPECT_EQ(joined.result().error, GroupError::kNone);
  EXPECT_EQ(joined.result().generation_id, 1);
  EXPECT_EQ(joined.result().leader_id, joined.result().member_id);
}

TEST(StaticMembership, UnknownInstanceIdWithAMemberIdIsAnUnknownMember) {
  CoordinatorHarness harness;
  StableGroup group = form_static_group(harness, {"a"});
  EXPECT_EQ(harness.coordinator().heartbeat("g", group.generation_id, group.member_ids[0], "z"),
            GroupError::kUnknownMemberId);
  EXPECT_EQ(harness.join(static_params("z", group.member_ids[0])).result().error,
            GroupError::kUnknownMemberId);
}

TEST(StaticMembership, StaticMemberThatMissesTheJoinPhaseStaysInTheNextGeneration) {
  CoordinatorHarness harness;
  StableGroup group = form_static_group(harness, {"a", "b"});
  // "a" rejoins (a leader rejoin rebalances); "b" keeps heartbeating but does not
  // rejoin within the rebalance timeout of 30 s. A dynamic member would be dropped.
  JoinCapture leader = harness.join(static_params("a", group.member_ids[0]));
  for (int i = 0; i < 3; ++i) {
    harness.advance(milliseconds(9000));
    EXPECT_EQ(harness.coordinator().heartbeat("g", group.generation_id, group.member_ids[1], "b"),
              GroupError::kRebalanceInProgress);
  }
  harness.advance(milliseconds(3000));
  ASSERT_EQ(leader.result().error, GroupError::kNone);
  EXPECT_EQ(leader.result().members.size(), 2u);
  EXPECT_EQ(harness.state("g"), "CompletingRebalance");
  // "b" learns of the new generation and rejoins with its member id.
  EXPECT_EQ(harness.coordinator().heartbeat("g", group.generation_id, group.member_ids[1], "b"),
            GroupError::kIllegalGeneration);
  JoinCapture follower = harness.join(static_params("b", group.member_ids[1]));
  EXPECT_EQ(follower.result().generation_id, leader.result().generation_id);
}

TEST(StaticMembership, LeaderThatMissesTheJoinPhaseHandsLeadershipToAJoinedMember) {
  CoordinatorHarness harness;
  StableGroup group = form_static_group(harness, {"a", "b"});
  // "b" changes its protocols, which rebalances; the leader "a" keeps heartbeating
  // but does not rejoin within the rebalance timeout.
  JoinCapture follower = harness.join(
      static_params("b", group.member_ids[1], {GroupProtocol{"range", bytes("more")}}));
  for (int i = 0; i < 3; ++i) {
    harness.advance(milliseconds(9000));
    EXPECT_EQ(harness.coordinator().heartbeat("g", group.generation_id, group.member_ids[0], "a"),
              GroupError::kRebalanceInProgress);
  }
  harness.advance(milliseconds(3000));  // 30 s: the join phase ends without "a"
  EXPECT_EQ(follower.result().error, GroupError::kNone);
  EXPECT_EQ(follower.result().leader_id, group.member_ids[1]);
  EXPECT_EQ(follower.result().members.size(), 2u);  // "a" is still a member
  EXPECT_EQ(harness.state("g"), "CompletingRebalance");
}

TEST(StaticMembership, SessionExpiryRemovesAStaticMemberAndRebalances) {
  CoordinatorHarness harness;
  StableGroup group = form_static_group(harness, {"a", "b"});
  harness.advance(milliseconds(6000));
  ASSERT_EQ(harness.coordinator().heartbeat("g", group.generation_id, group.member_ids[0], "a"),
            GroupError::kNone);
  harness.advance(milliseconds(4000));  // "b" last synced 10 s ago
  EXPECT_EQ(harness.state("g"), "PreparingRebalance");
  EXPECT_EQ(harness.coordinator().heartbeat("g", group.generation_id, group.member_ids[1], "b"),
            GroupError::kUnknownMemberId);
  // The instance id is free again: "b" joins as a new member, and waits for the
  // rebalance like one.
  JoinCapture rejoin = harness.join(static_params("b"));
  EXPECT_FALSE(rejoin.done());
  JoinCapture leader = harness.join(static_params("a", group.member_ids[0]));
  EXPECT_EQ(rejoin.result().generation_id, group.generation_id + 1);
  EXPECT_EQ(leader.result().members.size(), 2u);
}

TEST(StaticMembership, BatchLeaveReportsEachMemberAndRebalancesOnce) {
  CoordinatorHarness harness;
  StableGroup group = form_static_group(harness, {"a", "b", "c"});
  const std::size_t rebalances = rebalances_logged(harness);
  LeaveGroupResult result = harness.coordinator().leave_group(
      "g", {{"", "a"},                     // by instance id alone: leaves
            {"not-b", "b"},                // instance "b" is bound to another id
            {"ghost", std::nullopt},       // no such member
            {"", "nobody"},                // no such instance
            {group.member_ids[2], "c"}});  // member id and instance id: leaves
  EXPECT_EQ(result.error, GroupError::kNone);
  EXPECT_EQ(result.member_errors,
            (std::vector<GroupError>{GroupError::kNone, GroupError::kFencedInstanceId,
                                     GroupError::kUnknownMemberId, GroupError::kUnknownMemberId,
                                     GroupError::kNone}));
  EXPECT_EQ(rebalances_logged(harness), rebalances + 1);
  GroupSummary summary = harness.coordinator().describe_group("g");
  ASSERT_EQ(summary.members.size(), 1u);
  EXPECT_EQ(summary.members[0].member_id, group.member_ids[1]);
  EXPECT_EQ(harness.coordinator().leave_group("missing", {{"", "a"}}).member_errors,
            std::vector<GroupError>{GroupError::kUnknownMemberId});
}

TEST(StaticMembership, DescribeAndTheLeadersMemberListShowInstanceIds) {
  CoordinatorHarness harness;
  StableGroup group = form_static_group(harness, {"a", "b"});
  JoinCapture dynamic = harness.join(CoordinatorHarness::join_params("g"));
  JoinCapture leader = harness.join(static_params("a", group.member_ids[0]));
  JoinCapture follower = harness.join(static_params("b", group.member_ids[1]));
  ASSERT_EQ(leader.result().members.size(), 3u);
  EXPECT_EQ(leader.result().members[0].group_instance_id, std::optional<std::string>("a"));
  EXPECT_EQ(leader.result().members[1].group_instance_id, std::optional<std::string>("b"));
  EXPECT_EQ(leader.result().members[2].group_instance_id, std::nullopt);
  GroupSummary summary = harness.coordinator().describe_group("g");
  ASSERT_EQ(summary.members.size(), 3u);
  EXPECT_EQ(summary.members[0].group_instance_id, std::optional<std::string>("a"));
  EXPECT_EQ(summary.members[1].group_instance_id, std::optional<std::string>("b"));
  EXPECT_EQ(summary.members[2].group_instance_id, std::nullopt);
}

TEST(StaticMembership, InstanceIdLongerThanMaxIdLengthIsAnInvalidRequest) {
  CoordinatorConfig config;
  config.max_id_length = 64;
  CoordinatorHarness harness(config);
  const std::string before = harness.snapshot();
  EXPECT_EQ(harness.join(static_params(std::string(65, 'i'))).result().error,
            GroupError::kInvalidRequest);
  EXPECT_EQ(harness.snapshot(), before);
  // At the limit it joins, and its member id is cut to fit.
  JoinCapture joined = harness.join(static_params(std::string(64, 'i')));
  EXPECT_EQ(joined.result().error, GroupError::kNone);
  EXPECT_LE(joined.result().member_id.size(), 64u);
}

TEST(StaticMembership, StaticMembersCountInStoredBytes) {
  CoordinatorHarness dynamic_harness;
  dynamic_harness.form_stable_group("g", 1);
  CoordinatorHarness harness;
  StableGroup group = form_static_group(harness, {"a", "b"});
  EXPECT_EQ(harness.coordinator().stored_bytes(), harness.coordinator().recount_stored_bytes());
  harness.join(static_params("b", "", protocols({"range", "roundrobin"})));
  EXPECT_EQ(harness.coordinator().stored_bytes(), harness.coordinator().recount_stored_bytes());
  harness.coordinator().leave_group("g", {{"", "a"}});
  EXPECT_EQ(harness.coordinator().stored_bytes(), harness.coordinator().recount_stored_bytes());
  // One static member costs more than one dynamic member with the same protocols.
  CoordinatorHarness single;
  form_static_group(single, {"a"});
  EXPECT_GT(single.coordinator().stored_bytes(), dynamic_harness.coordinator().stored_bytes());
}

TEST(StaticMembership, ReplacementPastMaxStoredBytesChangesNothing) {
  CoordinatorHarness probe;
  form_static_group(probe, {"a"});
  CoordinatorConfig config;
  config.max_stored_bytes = probe.coordinator().stored_bytes();
  CoordinatorHarness harness(config);
  StableGroup group = form_static_group(harness, {"a"});
  const std::string before = harness.snapshot();
  JoinCapture rejoin = harness.join(static_params("a", "", protocols({"range", "roundrobin"})));
  EXPECT_EQ(rejoin.result().error, GroupError::kCoordinatorLoadInProgress);
  EXPECT_EQ(harness.snapshot(), before);
  EXPECT_EQ(harness.coordinator().heartbeat("g", group.generation_id, group.member_ids[0], "a"),
            GroupError::kNone);
}

}  // namespace
}  // namespace kgroups::broker
