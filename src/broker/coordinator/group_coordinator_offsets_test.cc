// SPDX-License-Identifier: Apache-2.0
//
// OffsetCommit fencing and OffsetFetch, DescribeGroups and ListGroups.
#include <gtest/gtest.h>

#include "broker/coordinator/coordinator_test_harness.h"

namespace kgroups::broker {
namespace {

OffsetCommitParams commit(std::string group_id, std::int32_t generation_id, std::string member_id,
                          std::int32_t partition, std::int64_t offset) {
  return OffsetCommitParams{std::move(group_id),
                            generation_id,
                            std::move(member_id),
                            {PartitionOffset{{"orders", partition}, {offset, "meta"}}},
                            std::nullopt};
}

std::int64_t committed(CoordinatorHarness& harness, const std::string& group_id,
                       std::int32_t partition) {
  std::vector<PartitionOffset> offsets = harness.coordinator().fetch_offsets(
      group_id, std::vector<TopicPartition>{{"orders", partition}});
  EXPECT_EQ(offsets.size(), 1u);
  return offsets.empty() ? -2 : offsets[0].committed.offset;
}

TEST(CoordinatorOffsets, FetchOfNothingCommittedIsMinusOne) {
  CoordinatorHarness harness;
  EXPECT_EQ(committed(harness, "nobody", 0), -1);
  EXPECT_TRUE(harness.coordinator().fetch_offsets("nobody", std::nullopt).empty());
  EXPECT_EQ(harness.state("nobody"), "Dead");  // fetching creates nothing
}

TEST(CoordinatorOffsets, GenerationMinusOneCommitCreatesAnEmptyGroup) {
  CoordinatorHarness harness;
  EXPECT_EQ(harness.coordinator().commit_offsets(commit("manual", -1, "", 3, 42)).error,
            GroupError::kNone);
  EXPECT_EQ(harness.state("manual"), "Empty");
  std::vector<PartitionOffset> all = harness.coordinator().fetch_offsets("manual", std::nullopt);
  ASSERT_EQ(all.size(), 1u);
  EXPECT_EQ(all[0], (PartitionOffset{{"orders", 3}, {42, "meta"}}));
  EXPECT_EQ(committed(harness, "manual", 0), -1);
  std::vector<GroupListing> groups = harness.coordinator().list_groups();
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(groups[0].group_id, "manual");
  EXPECT_EQ(groups[0].state, "Empty");
  // And again, now that the group exists and is Empty.
  EXPECT_EQ(harness.coordinator().commit_offsets(commit("manual", -1, "", 3, 50)).error,
            GroupError::kNone);
  EXPECT_EQ(committed(harness, "manual", 3), 50);
}

TEST(CoordinatorOffsets, GenerationMinusOneCommitToAGroupWithMembersIsRejected) {
  CoordinatorHarness harness;
  harness.form_stable_group("g", 1);
  EXPECT_EQ(harness.coordinator().commit_offsets(commit("g", -1, "", 0, 5)).error,
            GroupError::kUnknownMemberId);
  EXPECT_EQ(committed(harness, "g", 0), -1);
}

TEST(CoordinatorOffsets, GenerationCommitToAGroupThatDoesNotExistIsIllegal) {
  CoordinatorHarness harness;
  EXPECT_EQ(harness.coordinator().commit_offsets(commit("gone", 4, "old-member", 0, 5)).error,
            GroupError::kIllegalGeneration);
  EXPECT_EQ(harness.state("gone"), "Dead");
}

TEST(CoordinatorOffsets, MemberCommitIsFencedByMemberIdAndGeneration) {
  CoordinatorHarness harness;
  StableGroup group = harness.form_stable_group("g", 2);
  GroupCoordinator& coordinator = harness.coordinator();
  const std::string& member = group.member_ids[1];
  EXPECT_EQ(coordinator.commit_offsets(commit("g", group.generation_id, member, 0, 10)).error,
            GroupError::kNone);
  EXPECT_EQ(coordinator.commit_offsets(commit("g", group.generation_id - 1, member, 0, 11)).error,
            GroupError::kIllegalGeneration);
  EXPECT_EQ(coordinator.commit_offsets(commit("g", group.generation_id, "ghost", 0, 12)).error,
            GroupError::kUnknownMemberId);
  EXPECT_EQ(coordinator.commit_offsets(commit("g", -1, member, 0, 13)).error,
            GroupError::kIllegalGeneration);
  EXPECT_EQ(committed(harness, "g", 0), 10);
}

TEST(CoordinatorOffsets, CommitWhilePreparingARebalanceIsAllowedForTheCurrentGeneration) {
  CoordinatorHarness harness;
  StableGroup group = harness.form_stable_group("g", 2);
  harness.join(CoordinatorHarness::join_params("g"));  // eager clients commit before rejoining
  ASSERT_EQ(harness.state("g"), "PreparingRebalance");
  EXPECT_EQ(harness.coordinator()
                .commit_offsets(commit("g", group.generation_id, group.member_ids[1], 0, 20))
                .error,
            GroupError::kNone);
  EXPECT_EQ(committed(harness, "g", 0), 20);
}

TEST(CoordinatorOffsets, CommitWhileCompletingARebalanceGetsRebalanceInProgress) {
  CoordinatorHarness harness;
  JoinCapture joined = harness.join(CoordinatorHarness::join_params("g"));
  ASSERT_EQ(harness.state("g"), "CompletingRebalance");
  EXPECT_EQ(harness.coordinator()
                .commit_offsets(
                    commit("g", joined.result().generation_id, joined.result().member_id, 0, 1))
                .error,
            GroupError::kRebalanceInProgress);
  EXPECT_EQ(committed(harness, "g", 0), -1);
}

TEST(CoordinatorOffsets, MemberThatLostAPartitionCannotCommitOverTheNewOwner) {
  CoordinatorHarness harness;
  // Generation N: a single member owns partition 0 and is slow (e.g. stuck in
  // processing); it misses the rebalance that hands partition 0 to a new member.
  std::vector<GroupProtocol> slow_protocols = protocols({"range"});
  JoinCapture slow =
      harness.join(CoordinatorHarness::join_params("g", "", slow_protocols, 60000, 5000));
  std::string slow_id = slow.result().member_id;
  std::int32_t old_generation = slow.result().generation_id;
  harness.sync("g", old_generation, slow_id, {});
  JoinCapture owner =
      harness.join(CoordinatorHarness::join_params("g", "", protocols({"range"}), 60000, 5000));
  harness.advance(std::chrono::milliseconds(5000));  // the slow member never rejoins
  ASSERT_TRUE(owner.done());
  std::int32_t new_generation = owner.result().generation_id;
  harness.sync("g", new_generation, owner.result().member_id, {});
  EXPECT_EQ(harness.coordinator()
                .commit_offsets(commit("g", new_generation, owner.result().member_id, 0, 500))
                .error,
            GroupError::kNone);
  // The slow member wakes up and commits its older position: fenced.
  EXPECT_EQ(
      harness.coordinator().commit_offsets(commit("g", old_generation, slow_id, 0, 100)).error,
      GroupError::kUnknownMemberId);
  EXPECT_EQ(committed(harness, "g", 0), 500);
}

TEST(CoordinatorOffsets, MemberOfAStaleGenerationCannotCommitOverTheNewOwner) {
  CoordinatorHarness harness;
  StableGroup group = harness.form_stable_group("g", 2);
  std::int32_t old_generation = group.generation_id;
  // A third member joins; both old members rejoin, so partitions move.
  JoinCapture newcomer = harness.join(CoordinatorHarness::join_params("g"));
  harness.join(CoordinatorHarness::join_params("g", group.member_ids[0]));
  harness.join(CoordinatorHarness::join_params("g", group.member_ids[1]));
  std::int32_t new_generation = newcomer.result().generation_id;
  harness.sync("g", new_generation, group.member_ids[0], {});
  EXPECT_EQ(harness.coordinator()
                .commit_offsets(commit("g", new_generation, newcomer.result().member_id, 5, 900))
                .error,
            GroupError::kNone);
  // A commit still carrying the old generation (sent before the member saw the
  // rebalance) must not overwrite it.
  EXPECT_EQ(harness.coordinator()
                .commit_offsets(commit("g", old_generation, group.member_ids[1], 5, 300))
                .error,
            GroupError::kIllegalGeneration);
  EXPECT_EQ(committed(harness, "g", 5), 900);
}

TEST(CoordinatorOffsets, CommittedOffsetsOutliveTheMembers) {
  CoordinatorHarness harness;
  StableGroup group = harness.form_stable_group("g", 1);
  harness.coordinator().commit_offsets(
      commit("g", group.generation_id, group.member_ids[0], 1, 77));
  harness.coordinator().leave_group("g", leaving(group.member_ids));
  EXPECT_EQ(harness.state("g"), "Empty");
  EXPECT_EQ(committed(harness, "g", 1), 77);
  EXPECT_EQ(harness.coordinator()
                .commit_offsets(commit("g", group.generation_id, group.member_ids[0], 1, 78))
                .error,
            GroupError::kUnknownMemberId);
  // A new member resumes the group at the next generation.
  JoinCapture next = harness.join(CoordinatorHarness::join_params("g"));
  EXPECT_EQ(next.result().generation_id, group.generation_id + 2);
}

TEST(CoordinatorDescribe, StableGroupShowsMembersWithMetadataAndAssignment) {
  CoordinatorHarness harness;
  StableGroup group = harness.form_stable_group("g", 2);
  GroupSummary summary = harness.coordinator().describe_group("g");
  EXPECT_EQ(summary.error, GroupError::kNone);
  EXPECT_EQ(summary.state, "Stable");
  EXPECT_EQ(summary.protocol_type, "consumer");
  EXPECT_EQ(summary.protocol_name, "range");
  ASSERT_EQ(summary.members.size(), 2u);
  EXPECT_EQ(summary.members[1].member_id, group.member_ids[1]);
  EXPECT_EQ(summary.members[1].client_id, "client");
  EXPECT_EQ(summary.members[1].client_host, "/127.0.0.1");
  EXPECT_EQ(summary.members[1].metadata, bytes("range"));
  EXPECT_EQ(summary.members[1].assignment, bytes("assignment-" + group.member_ids[1]));
}

TEST(CoordinatorDescribe, RebalancingGroupHidesMetadataAndUnknownGroupIsDead) {
  CoordinatorHarness harness;
  harness.form_stable_group("g", 1);
  harness.join(CoordinatorHarness::join_params("g"));
  GroupSummary summary = harness.coordinator().describe_group("g");
  EXPECT_EQ(summary.state, "PreparingRebalance");
  EXPECT_EQ(summary.protocol_name, "");
  ASSERT_EQ(summary.members.size(), 2u);
  EXPECT_TRUE(summary.members[0].metadata.empty());
  EXPECT_TRUE(summary.members[0].assignment.empty());
  GroupSummary unknown = harness.coordinator().describe_group("unknown");
  EXPECT_EQ(unknown.error, GroupError::kNone);
  EXPECT_EQ(unknown.state, "Dead");
  EXPECT_TRUE(unknown.members.empty());
}

TEST(CoordinatorDescribe, ListGroupsIsOrderedByGroupId) {
  CoordinatorHarness harness;
  harness.form_stable_group("b", 1);
  harness.coordinator().commit_offsets(commit("a", -1, "", 0, 1));
  std::vector<GroupListing> groups = harness.coordinator().list_groups();
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0].group_id, "a");
  EXPECT_EQ(groups[1].group_id, "b");
  EXPECT_EQ(groups[1].protocol_type, "consumer");
  EXPECT_EQ(groups[1].state, "Stable");
}

}  // namespace
}  // namespace kgroups::broker
