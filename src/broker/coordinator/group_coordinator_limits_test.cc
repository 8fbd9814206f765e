// SPDX-License-Identifier: Apache-2.0
//
// The coordinator's limits on groups, members and ids: max_groups, max_group_size,
// max_id_length. Every refused call must leave the coordinator as it was.
#include <gtest/gtest.h>

#include "broker/coordinator/coordinator_test_harness.h"

namespace kgroups::broker {
namespace {

OffsetCommitParams outside_commit(std::string group_id, std::int32_t partition = 0) {
  return OffsetCommitParams{
      std::move(group_id), -1, "", {{{"orders", partition}, {5, "m"}}}, std::nullopt};
}

TEST(GroupCoordinatorLimits, JoinCreatingAGroupBeyondMaxGroupsGetsPolicyViolation) {
  CoordinatorConfig config;
  config.max_groups = 2;
  CoordinatorHarness harness(config);
  harness.form_stable_group("a", 1);
  harness.form_stable_group("b", 1);
  const std::string before = harness.snapshot();
  JoinCapture refused = harness.join(CoordinatorHarness::join_params("c"));
  EXPECT_EQ(refused.result().error, GroupError::kPolicyViolation);
  EXPECT_EQ(harness.snapshot(), before);
  EXPECT_EQ(harness.state("c"), "Dead");
  // Existing groups still take new members.
  EXPECT_EQ(harness.join(CoordinatorHarness::join_params("a")).calls(), 0u);  // parked: rebalance
  EXPECT_EQ(harness.state("a"), "PreparingRebalance");
}

TEST(GroupCoordinatorLimits, CommitCreatingAGroupBeyondMaxGroupsGetsPolicyViolation) {
  CoordinatorConfig config;
  config.max_groups = 1;
  CoordinatorHarness harness(config);
  ASSERT_EQ(harness.coordinator().commit_offsets(outside_commit("a")).error, GroupError::kNone);
  const std::string before = harness.snapshot();
  OffsetCommitResult refused = harness.coordinator().commit_offsets(outside_commit("b"));
  EXPECT_EQ(refused.error, GroupError::kPolicyViolation);
  EXPECT_EQ(refused.partition_errors, std::vector<GroupError>{GroupError::kPolicyViolation});
  EXPECT_EQ(harness.snapshot(), before);
  // Commits to the group that exists are unaffected.
  EXPECT_EQ(harness.coordinator().commit_offsets(outside_commit("a", 1)).error, GroupError::kNone);
}

TEST(GroupCoordinatorLimits, DroppedGroupsFreeTheirPlaceUnderMaxGroups) {
  CoordinatorConfig config;
  config.max_groups = 1;
  CoordinatorHarness harness(config);
  StableGroup group = harness.form_stable_group("a", 1);
  const std::string before = harness.snapshot();
  EXPECT_EQ(harness.join(CoordinatorHarness::join_params("b")).result().error,
            GroupError::kPolicyViolation);
  EXPECT_EQ(harness.snapshot(), before);
  harness.coordinator().leave_group("a", leaving(group.member_ids));  // no offsets: "a" is dropped
  EXPECT_EQ(harness.join(CoordinatorHarness::join_params("b")).result().error, GroupError::kNone);
}

TEST(GroupCoordinatorLimits, NewMemberOfAFullGroupGetsGroupMaxSizeReached) {
  CoordinatorConfig config;
  config.max_group_size = 2;
  CoordinatorHarness harness(config);
  harness.form_stable_group("g", 2);
  const std::string before = harness.snapshot();
  JoinCapture refused = harness.join(CoordinatorHarness::join_params("g"));
  EXPECT_EQ(refused.result().error, GroupError::kGroupMaxSizeReached);
  EXPECT_EQ(refused.result().member_id, "");
  EXPECT_EQ(harness.snapshot(), before);  // still Stable, same members
}

TEST(GroupCoordinatorLimits, PendingMemberIdsCountTowardsTheGroupSize) {
  CoordinatorConfig config;
  config.max_group_size = 2;
  CoordinatorHarness harness(config);
  harness.form_stable_group("g", 1);
  JoinGroupParams pending = CoordinatorHarness::join_params("g");
  pending.require_known_member_id = true;
  std::string pending_id = harness.join(pending).result().member_id;
  const std::string before = harness.snapshot();
  EXPECT_EQ(harness.join(pending).result().error, GroupError::kGroupMaxSizeReached);
  EXPECT_EQ(harness.join(CoordinatorHarness::join_params("g")).result().error,
            GroupError::kGroupMaxSizeReached);
  EXPECT_EQ(harness.snapshot(), before);
  // The pending member holds its place: it joins with its id.
  pending.member_id = pending_id;
  harness.join(pending);
  EXPECT_EQ(harness.state("g"), "PreparingRebalance");
  EXPECT_EQ(harness.coordinator().describe_group("g").members.size(), 2u);
}

TEST(GroupCoordinatorLimits, ExistingMembersRejoiningAFullGroupAreUnaffected) {
  CoordinatorConfig config;
  config.max_group_size = 2;
  CoordinatorHarness harness(config);
  StableGroup group = harness.form_stable_group("g", 2);
  JoinGroupParams changed = CoordinatorHarness::join_params("g", group.member_ids[1]);
  changed.protocols[0].metadata = bytes("another subscription");
  JoinCapture follower = harness.join(changed);
  JoinCapture leader = harness.join(CoordinatorHarness::join_params("g", group.member_ids[0]));
  ASSERT_TRUE(follower.done() && leader.done());
  EXPECT_EQ(follower.result().error, GroupError::kNone);
  EXPECT_EQ(leader.result().generation_id, group.generation_id + 1);
  EXPECT_EQ(leader.result().members.size(), 2u);
}

TEST(GroupCoordinatorLimits, GroupIdLongerThanTheLimitIsInvalidOnEveryCall) {
  CoordinatorConfig config;
  config.max_id_length = 64;
  CoordinatorHarness harness(config);
  StableGroup group = harness.form_stable_group(std::string(64, 'g'), 1);  // at the limit: fine
  const std::string too_long(65, 'g');
  const std::string& member_id = group.member_ids[0];
  const std::string before = harness.snapshot();
  GroupCoordinator& coordinator = harness.coordinator();
  EXPECT_EQ(harness.join(CoordinatorHarness::join_params(too_long)).result().error,
            GroupError::kInvalidGroupId);
  EXPECT_EQ(harness.sync(too_long, 1, member_id).result().error, GroupError::kInvalidGroupId);
  EXPECT_EQ(coordinator.heartbeat(too_long, 1, member_id, std::nullopt),
            GroupError::kInvalidGroupId);
  EXPECT_EQ(coordinator.leave_group(too_long, leaving({member_id})).error,
            GroupError::kInvalidGroupId);
  OffsetCommitResult commit = coordinator.commit_offsets(outside_commit(too_long));
  EXPECT_EQ(commit.error, GroupError::kInvalidGroupId);
  EXPECT_EQ(commit.partition_errors, std::vector<GroupError>{GroupError::kInvalidGroupId});
  GroupSummary summary = coordinator.describe_group(too_long);
  EXPECT_EQ(summary.error, GroupError::kInvalidGroupId);
  EXPECT_EQ(summary.group_id, too_long);
  EXPECT_EQ(summary.state, "");
  EXPECT_TRUE(coordinator.fetch_offsets(too_long, std::nullopt).empty());
  EXPECT_EQ(harness.snapshot(), before);
}

TEST(GroupCoordinatorLimits, MemberIdLongerThanTheLimitIsUnknownAndNotEchoed) {
  CoordinatorConfig config;
  config.max_id_length = 64;
  CoordinatorHarness harness(config);
  StableGroup group = harness.form_stable_group("g", 1);
  const std::string too_long(65, 'm');
  const std::string before = harness.snapshot();
  GroupCoordinator& coordinator = harness.coordinator();
  JoinCapture join = harness.join(CoordinatorHarness::join_params("g", too_long));
  EXPECT_EQ(join.result().error, GroupError::kUnknownMemberId);
  EXPECT_EQ(join.result().member_id, "");
  EXPECT_EQ(harness.sync("g", group.generation_id, too_long).result().error,
            GroupError::kUnknownMemberId);
  EXPECT_EQ(coordinator.heartbeat("g", group.generation_id, too_long, std::nullopt),
            GroupError::kUnknownMemberId);
  EXPECT_EQ(coordinator.leave_group("g", leaving({too_long})).member_errors,
            std::vector<GroupError>{GroupError::kUnknownMemberId});
  EXPECT_EQ(coordinator
                .commit_offsets(OffsetCommitParams{
                    "g", group.generation_id, too_long, {{{"orders", 0}, {1, ""}}}, std::nullopt})
                .error,
            GroupError::kUnknownMemberId);
  EXPECT_EQ(harness.snapshot(), before);
}

TEST(GroupCoordinatorLimits, ClientIdOrProtocolTypeLongerThanTheLimitIsAnInvalidRequest) {
  CoordinatorConfig config;
  config.max_id_length = 64;
  CoordinatorHarness harness(config);
  harness.form_stable_group("g", 1);
  const std::string before = harness.snapshot();
  JoinGroupParams long_client = CoordinatorHarness::join_params("g");
  long_client.client_id = std::string(65, 'c');
  EXPECT_EQ(harness.join(long_client).result().error, GroupError::kInvalidRequest);
  JoinGroupParams long_type = CoordinatorHarness::join_params("new");
  long_type.protocol_type = std::string(65, 't');
  EXPECT_EQ(harness.join(long_type).result().error, GroupError::kInvalidRequest);
  EXPECT_EQ(harness.snapshot(), before);
}

TEST(GroupCoordinatorLimits, MemberIdsFitTheLimitWhateverTheClientId) {
  CoordinatorConfig config;
  config.max_id_length = 64;
  CoordinatorHarness harness(config);
  // 32 two-byte characters: the member id keeps the 13 that fit whole, then "-UUID".
  std::string client_id;
  for (int i = 0; i < 32; ++i) client_id += "\xC3\xA9";  // U+00E9
  JoinGroupParams params = CoordinatorHarness::join_params("g");
  params.client_id = client_id;
  JoinCapture joined = harness.join(params);
  ASSERT_EQ(joined.result().error, GroupError::kNone);
  const std::string& member_id = joined.result().member_id;
  EXPECT_EQ(member_id.size(), 26u + 37u);
  EXPECT_EQ(member_id.substr(0, 26), client_id.substr(0, 26));
  EXPECT_EQ(member_id[26], '-');
  harness.sync("g", joined.result().generation_id, member_id);
  EXPECT_EQ(
      harness.coordinator().heartbeat("g", joined.result().generation_id, member_id, std::nullopt),
      GroupError::kNone);
}

}  // namespace
}  // namespace kgroups::broker
