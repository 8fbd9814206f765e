// SPDX-License-Identifier: Apache-2.0
//
// The coordinator's limits on bytes per group and per offset: max_group_metadata_bytes
// (JoinGroup protocols, the leader's assignments) and offset_metadata_max_bytes.
#include <gtest/gtest.h>

#include "broker/coordinator/coordinator_test_harness.h"

namespace kgroups::broker {
namespace {

// One "range" protocol (5 bytes of name) with `metadata_bytes` bytes of metadata.
std::vector<GroupProtocol> range_with(std::size_t metadata_bytes) {
  return {GroupProtocol{"range", std::vector<std::uint8_t>(metadata_bytes, 7)}};
}

CoordinatorConfig metadata_limit(std::size_t bytes) {
  CoordinatorConfig config;
  config.max_group_metadata_bytes = bytes;
  return config;
}

TEST(GroupCoordinatorLimits, JoinPastMaxGroupMetadataBytesGetsGroupMaxSizeReached) {
  CoordinatorHarness harness(metadata_limit(100));
  JoinCapture first = harness.join(CoordinatorHarness::join_params("g", "", range_with(55)));
  ASSERT_EQ(first.result().error, GroupError::kNone);  // 5 + 55 = 60 bytes
  const std::string before = harness.snapshot();
  JoinCapture second = harness.join(CoordinatorHarness::join_params("g", "", range_with(41)));
  EXPECT_EQ(second.result().error, GroupError::kGroupMaxSizeReached);  // 60 + 46 > 100
  EXPECT_EQ(harness.snapshot(), before);
  JoinCapture fits = harness.join(CoordinatorHarness::join_params("g", "", range_with(35)));
  EXPECT_FALSE(fits.done());  // 60 + 40 = 100: admitted, parked in the rebalance
}

TEST(GroupCoordinatorLimits, RejoinWithMetadataPastTheLimitIsRefusedAndChangesNothing) {
  CoordinatorHarness harness(metadata_limit(200));
  StableGroup group = harness.form_stable_group("g", 2);  // 20 bytes of protocols, 108 assigned
  const std::string before = harness.snapshot();
  JoinCapture refused =
      harness.join(CoordinatorHarness::join_params("g", group.member_ids[1], range_with(200)));
  EXPECT_EQ(refused.result().error, GroupError::kGroupMaxSizeReached);
  EXPECT_EQ(harness.snapshot(), before);  // still Stable with the old subscription
}

TEST(GroupCoordinatorLimits, LeaderAssignmentPastTheLimitFailsEverySyncAndRebalances) {
  CoordinatorHarness harness(metadata_limit(100));
  std::string leader_id = harness.join(CoordinatorHarness::join_params("g")).result().member_id;
  JoinCapture follower = harness.join(CoordinatorHarness::join_params("g"));
  harness.join(CoordinatorHarness::join_params("g", leader_id));
  const std::int32_t generation = follower.result().generation_id;
  const std::string follower_id = follower.result().member_id;
  // Each member's protocols take 10 bytes ("range" named and as metadata).
  const std::size_t stored_bytes = harness.coordinator().stored_bytes();
  SyncCapture parked = harness.sync("g", generation, follower_id);
  SyncCapture leader = harness.sync("g", generation, leader_id,
                                    {{leader_id, std::vector<std::uint8_t>(50, 1)},
                                     {follower_id, std::vector<std::uint8_t>(50, 2)}});
  EXPECT_EQ(leader.result().error, GroupError::kGroupMaxSizeReached);  // 20 + 100 > 100
  EXPECT_EQ(parked.result().error, GroupError::kGroupMaxSizeReached);
  EXPECT_EQ(harness.state("g"), "PreparingRebalance");
  EXPECT_EQ(harness.coordinator().stored_bytes(), stored_bytes);  // no assignment kept
  EXPECT_EQ(harness.coordinator().describe_group("g").members.size(), 2u);
  // Both rejoin and the leader sends an assignment that fits.
  harness.join(CoordinatorHarness::join_params("g", follower_id));
  JoinCapture rejoined = harness.join(CoordinatorHarness::join_params("g", leader_id));
  ASSERT_TRUE(rejoined.done());
  SyncCapture fits = harness.sync("g", rejoined.result().generation_id, leader_id,
                                  {{leader_id, std::vector<std::uint8_t>(40, 1)},
                                   {follower_id, std::vector<std::uint8_t>(40, 2)}});
  EXPECT_EQ(fits.result().error, GroupError::kNone);  // 20 + 80 = 100
  EXPECT_EQ(harness.state("g"), "Stable");
}

TEST(GroupCoordinatorLimits, OffsetMetadataPastTheLimitIsRefusedPerPartition) {
  CoordinatorHarness harness;
  GroupCoordinator& coordinator = harness.coordinator();
  ASSERT_EQ(
      coordinator.commit_offsets({"g", -1, "", {{{"orders", 1}, {3, "kept"}}}, std::nullopt}).error,
      GroupError::kNone);
  const std::string at_limit(4096, 'm');
  const std::string too_long(4097, 'm');
  OffsetCommitResult result = coordinator.commit_offsets({"g",
                                                          -1,
                                                          "",
                                                          {{{"orders", 0}, {10, at_limit}},
                                                           {{"orders", 1}, {11, too_long}},
                                                           {{"orders", 2}, {12, ""}}},
                                                          std::nullopt});
  EXPECT_EQ(result.error, GroupError::kNone);
  EXPECT_EQ(result.partition_errors,
            (std::vector<GroupError>{GroupError::kNone, GroupError::kOffsetMetadataTooLarge,
                                     GroupError::kNone}));
  std::vector<PartitionOffset> offsets = coordinator.fetch_offsets("g", std::nullopt);
  ASSERT_EQ(offsets.size(), 3u);
  EXPECT_EQ(offsets[0].committed, (CommittedOffset{10, at_limit}));
  EXPECT_EQ(offsets[1].committed, (CommittedOffset{3, "kept"}));  // not overwritten
  EXPECT_EQ(offsets[2].committed, (CommittedOffset{12, ""}));
}

TEST(GroupCoordinatorLimits, OffsetMetadataPastTheLimitEverywhereStoresNothingAndCreatesNoGroup) {
  CoordinatorConfig config;
  config.offset_metadata_max_bytes = 8;
  CoordinatorHarness harness(config);
  const std::string before = harness.snapshot();
  OffsetCommitResult result = harness.coordinator().commit_offsets(
      {"g", -1, "", {{{"orders", 0}, {1, "123456789"}}}, std::nullopt});
  EXPECT_EQ(result.error, GroupError::kNone);
  EXPECT_EQ(result.partition_errors, std::vector<GroupError>{GroupError::kOffsetMetadataTooLarge});
  EXPECT_EQ(harness.snapshot(), before);
  EXPECT_EQ(harness.state("g"), "Dead");
}

TEST(GroupCoordinatorLimits, RequestErrorsApplyToEveryPartition) {
  CoordinatorHarness harness;
  StableGroup group = harness.form_stable_group("g", 1);
  const std::string before = harness.snapshot();
  OffsetCommitResult result = harness.coordinator().commit_offsets(
      {"g",
       group.generation_id - 1,
       group.member_ids[0],
       {{{"orders", 0}, {1, ""}}, {{"orders", 1}, {1, std::string(5000, 'm')}}},
       std::nullopt});
  EXPECT_EQ(result.error, GroupError::kIllegalGeneration);
  EXPECT_EQ(result.partition_errors, std::vector<GroupError>(2, GroupError::kIllegalGeneration));
  EXPECT_EQ(harness.snapshot(), before);
}

}  // namespace
}  // namespace kgroups::broker
