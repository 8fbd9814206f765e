// SPDX-License-Identifier: Apache-2.0
//
// stored_bytes(): the running total of what all groups keep, and max_stored_bytes,
// the cap past which calls that would grow it are refused.
#include <gtest/gtest.h>

#include "broker/coordinator/coordinator_test_harness.h"

namespace kgroups::broker {
namespace {

using std::chrono::milliseconds;

// Fails the test unless the running total equals a count from scratch.
void expect_counted(CoordinatorHarness& harness, const std::string& step) {
  EXPECT_EQ(harness.coordinator().stored_bytes(), harness.coordinator().recount_stored_bytes())
      << "after " << step;
}

TEST(GroupCoordinatorStoredBytes, TotalFollowsEveryChangeAndReturnsToZeroWhenGroupsAreDropped) {
  CoordinatorHarness harness;
  GroupCoordinator& coordinator = harness.coordinator();
  EXPECT_EQ(coordinator.stored_bytes(), 0u);
  StableGroup first = harness.form_stable_group("first", 3);
  expect_counted(harness, "forming a group of 3");
  StableGroup second = harness.form_stable_group("second", 2);
  expect_counted(harness, "forming a group of 2");
  JoinGroupParams pending = CoordinatorHarness::join_params("first");
  pending.require_known_member_id = true;
  harness.join(pending);
  expect_counted(harness, "a pending member id");
  JoinGroupParams changed = CoordinatorHarness::join_params("second", second.member_ids[1]);
  changed.protocols[0].metadata = std::vector<std::uint8_t>(300, 1);
  harness.join(changed);
  harness.join(CoordinatorHarness::join_params("second", second.member_ids[0]));
  expect_counted(harness, "a rejoin with larger metadata");
  coordinator.commit_offsets({"outside", -1, "", {{{"orders", 0}, {1, "short"}}}, std::nullopt});
  coordinator.commit_offsets(
      {"outside", -1, "", {{{"orders", 0}, {2, std::string(900, 'm')}}}, std::nullopt});
  coordinator.commit_offsets({"outside", -1, "", {{{"orders", 0}, {3, "s"}}}, std::nullopt});
  expect_counted(harness, "overwriting committed metadata");
  EXPECT_GT(coordinator.stored_bytes(), 0u);
  // Everyone leaves or expires; no group keeps offsets except "outside".
  coordinator.leave_group("first", leaving(first.member_ids));
  expect_counted(harness, "leaving");
  for (int step = 0; step < 20; ++step) {  // sessions, syncs and the pending id run out
    harness.advance(milliseconds(15000));
    expect_counted(harness, "expiries");
  }
  EXPECT_EQ(harness.coordinator().list_groups().size(), 1u);
  EXPECT_EQ(coordinator.stored_bytes(), coordinator.recount_stored_bytes());
  // Forming and dropping a group brings the total back to where it was.
  const std::size_t with_outside = coordinator.stored_bytes();
  StableGroup again = harness.form_stable_group("again", 2);
  coordinator.leave_group("again", leaving(again.member_ids));
  EXPECT_EQ(coordinator.stored_bytes(), with_outside);
  harness.coordinator().shutdown();
  EXPECT_EQ(coordinator.stored_bytes(), 0u);
}

TEST(GroupCoordinatorStoredBytes, CountsEveryByteAClientSentPlusOverhead) {
  CoordinatorHarness harness;
  JoinGroupParams params = CoordinatorHarness::join_params("g", "", {});
  params.protocols = {GroupProtocol{"range", std::vector<std::uint8_t>(10000, 1)}};
  harness.join(params);
  EXPECT_GT(harness.coordinator().stored_bytes(), 10000u + 1 + 6 + 8 + 10 + 5);
  EXPECT_LT(harness.coordinator().stored_bytes(), 12000u);
}

// A coordinator whose cap leaves `headroom` bytes above what `setup` stores.
class CappedHarness {
 public:
  template <typename Setup>
  CappedHarness(std::size_t headroom, Setup setup) {
    CoordinatorHarness probe;
    setup(probe);
    CoordinatorConfig config;
    config.max_stored_bytes = probe.coordinator().stored_bytes() + headroom;
    harness_ = std::make_unique<CoordinatorHarness>(config);
  }
  CoordinatorHarness& operator*() { return *harness_; }
  CoordinatorHarness* operator->() { return harness_.get(); }

 private:
  std::unique_ptr<CoordinatorHarness> harness_;
};

TEST(GroupCoordinatorStoredBytes, JoinPastMaxStoredBytesGetsCoordinatorLoadInProgress) {
  auto setup = [](CoordinatorHarness& harness) { harness.form_stable_group("g", 1); };
  CappedHarness harness(150, setup);
  setup(*harness);
  const std::string before = harness->snapshot();
  EXPECT_EQ(harness->join(CoordinatorHarness::join_params("g")).result().error,
            GroupError::kCoordinatorLoadInProgress);
  EXPECT_EQ(harness->join(CoordinatorHarness::join_params("new")).result().error,
            GroupError::kCoordinatorLoadInProgress);
  JoinGroupParams pending = CoordinatorHarness::join_params("g");
  pending.require_known_member_id = true;
  // A pending id takes its 43 bytes plus 88 of overhead: that fits, a second does not.
  EXPECT_EQ(harness->join(pending).result().error, GroupError::kMemberIdRequired);
  const std::string with_pending = harness->snapshot();
  EXPECT_NE(with_pending, before);
  EXPECT_EQ(harness->join(pending).result().error, GroupError::kCoordinatorLoadInProgress);
  EXPECT_EQ(harness->snapshot(), with_pending);
}

TEST(GroupCoordinatorStoredBytes, CommitPastMaxStoredBytesGetsCoordinatorLoadInProgress) {
  auto setup = [](CoordinatorHarness& harness) {
    harness.coordinator().commit_offsets(
        {"g", -1, "", {{{"orders", 0}, {1, "meta"}}}, std::nullopt});
  };
  CappedHarness harness(10, setup);
  setup(*harness);
  GroupCoordinator& coordinator = harness->coordinator();
  const std::string before = harness->snapshot();
  OffsetCommitResult refused = coordinator.commit_offsets(
      {"g", -1, "", {{{"orders", 0}, {2, "meta"}}, {{"orders", 1}, {2, ""}}}, std::nullopt});
  EXPECT_EQ(refused.error, GroupError::kCoordinatorLoadInProgress);
  EXPECT_EQ(refused.partition_errors,
            std::vector<GroupError>(2, GroupError::kCoordinatorLoadInProgress));
  EXPECT_EQ(harness->snapshot(), before);
  EXPECT_EQ(
      coordinator.commit_offsets({"other", -1, "", {{{"orders", 0}, {1, ""}}}, std::nullopt}).error,
      GroupError::kCoordinatorLoadInProgress);
  EXPECT_EQ(harness->snapshot(), before);
  // Growing by 10 bytes fits; overwriting without growing always does.
  EXPECT_EQ(
      coordinator
          .commit_offsets(
              {"g", -1, "", {{{"orders", 0}, {3, "meta" + std::string(10, 'x')}}}, std::nullopt})
          .error,
      GroupError::kNone);
  EXPECT_EQ(
      coordinator.commit_offsets({"g", -1, "", {{{"orders", 0}, {4, ""}}}, std::nullopt}).error,
      GroupError::kNone);
}

TEST(GroupCoordinatorStoredBytes, RejoinWithLargerProtocolsPastMaxStoredBytesIsRefused) {
  StableGroup group;
  auto setup = [&](CoordinatorHarness& harness) { group = harness.form_stable_group("g", 2); };
  CappedHarness harness(50, setup);
  setup(*harness);
  const std::string before = harness->snapshot();
  JoinGroupParams larger = CoordinatorHarness::join_params("g", group.member_ids[1]);
  larger.protocols[0].metadata = std::vector<std::uint8_t>(100, 1);
  EXPECT_EQ(harness->join(larger).result().error, GroupError::kCoordinatorLoadInProgress);
  EXPECT_EQ(harness->snapshot(), before);  // still Stable with the old subscription
  larger.protocols[0].metadata = std::vector<std::uint8_t>(40, 1);
  EXPECT_FALSE(harness->join(larger).done());  // 35 more bytes fit: the group rebalances
  EXPECT_EQ(harness->state("g"), "PreparingRebalance");
}

TEST(GroupCoordinatorStoredBytes, PendingMemberJoiningPastMaxStoredBytesKeepsItsId) {
  std::string pending_id;
  auto setup = [&](CoordinatorHarness& harness) {
    harness.form_stable_group("g", 1);
    JoinGroupParams pending = CoordinatorHarness::join_params("g");
    pending.require_known_member_id = true;
    pending_id = harness.join(pending).result().member_id;
  };
  CappedHarness harness(10, setup);
  setup(*harness);
  const std::string before = harness->snapshot();
  JoinGroupParams params = CoordinatorHarness::join_params("g", pending_id);
  JoinCapture refused = harness->join(params);
  EXPECT_EQ(refused.result().error, GroupError::kCoordinatorLoadInProgress);
  EXPECT_EQ(refused.result().member_id, pending_id);
  EXPECT_EQ(harness->snapshot(), before);  // the id is still pending: it may retry
  EXPECT_EQ(harness->coordinator().leave_group("g", leaving({pending_id})).member_errors,
            std::vector<GroupError>{GroupError::kNone});
}

TEST(GroupCoordinatorStoredBytes, LeaderSyncPastMaxStoredBytesIsRefusedAndChangesNothing) {
  std::string leader_id;
  std::string follower_id;
  std::int32_t generation = 0;
  auto setup = [&](CoordinatorHarness& harness) {
    leader_id = harness.join(CoordinatorHarness::join_params("g")).result().member_id;
    JoinCapture follower = harness.join(CoordinatorHarness::join_params("g"));
    harness.join(CoordinatorHarness::join_params("g", leader_id));
    follower_id = follower.result().member_id;
    generation = follower.result().generation_id;
  };
  CappedHarness harness(100, setup);
  setup(*harness);
  SyncCapture parked = harness->sync("g", generation, follower_id);
  const std::string before = harness->snapshot();
  SyncCapture refused = harness->sync("g", generation, leader_id,
                                      {{leader_id, std::vector<std::uint8_t>(60, 1)},
                                       {follower_id, std::vector<std::uint8_t>(60, 2)}});
  EXPECT_EQ(refused.result().error, GroupError::kCoordinatorNotAvailable);
  EXPECT_FALSE(parked.done());
  EXPECT_EQ(harness->snapshot(), before);  // CompletingRebalance, no assignment
  SyncCapture fits = harness->sync("g", generation, leader_id,
                                   {{leader_id, std::vector<std::uint8_t>(50, 1)},
                                    {follower_id, std::vector<std::uint8_t>(50, 2)}});
  EXPECT_EQ(fits.result().error, GroupError::kNone);
  EXPECT_EQ(parked.result().assignment.size(), 50u);
  EXPECT_EQ(harness->state("g"), "Stable");
}

TEST(GroupCoordinatorStoredBytes, CallsThatDoNotGrowTheTotalAreNeverRefused) {
  StableGroup group;
  auto setup = [&](CoordinatorHarness& harness) {
    group = harness.form_stable_group("g", 2);
    harness.coordinator().commit_offsets({"g",
                                          group.generation_id,
                                          group.member_ids[0],
                                          {{{"orders", 0}, {1, "meta"}}},
                                          std::nullopt});
  };
  CappedHarness harness(0, setup);
  setup(*harness);
  GroupCoordinator& coordinator = harness->coordinator();
  ASSERT_EQ(coordinator.stored_bytes(), coordinator.recount_stored_bytes());
  EXPECT_EQ(coordinator.heartbeat("g", group.generation_id, group.member_ids[1], std::nullopt),
            GroupError::kNone);
  EXPECT_EQ(coordinator
                .commit_offsets({"g",
                                 group.generation_id,
                                 group.member_ids[0],
                                 {{{"orders", 0}, {2, "meta"}}},
                                 std::nullopt})
                .error,
            GroupError::kNone);
  EXPECT_EQ(harness->join(CoordinatorHarness::join_params("g", group.member_ids[1])).result().error,
            GroupError::kNone);  // unchanged protocols: the current generation again
  EXPECT_EQ(coordinator.leave_group("g", leaving({group.member_ids[1]})).member_errors,
            std::vector<GroupError>{GroupError::kNone});
  EXPECT_EQ(coordinator.stored_bytes(), coordinator.recount_stored_bytes());
}

}  // namespace
}  // namespace kgroups::broker
