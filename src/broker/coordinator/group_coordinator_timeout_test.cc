// SPDX-License-Identifier: Apache-2.0
//
// Timeouts driven by the manual clock: sessions, rebalance (join) timeouts, sync
// timeouts, new-member timeouts, next_deadline(), and shutdown.
#include <gtest/gtest.h>

#include "broker/coordinator/coordinator_test_harness.h"

namespace kgroups::broker {
namespace {

using std::chrono::milliseconds;

TEST(CoordinatorTimeout, HeartbeatsKeepAMemberAlive) {
  CoordinatorHarness harness;
  StableGroup group = harness.form_stable_group("g", 2);
  for (int beat = 0; beat < 10; ++beat) {
    harness.advance(milliseconds(9000));
    for (const std::string& id : group.member_ids) {
      ASSERT_EQ(harness.coordinator().heartbeat("g", group.generation_id, id, std::nullopt),
                GroupError::kNone);
    }
  }
  EXPECT_EQ(harness.state("g"), "Stable");
}

TEST(CoordinatorTimeout, SessionExpiryRemovesTheMemberAndRebalances) {
  CoordinatorHarness harness;
  StableGroup group = harness.form_stable_group("g", 2);
  const std::string& survivor = group.member_ids[0];
  const std::string& crashed = group.member_ids[1];
  harness.advance(milliseconds(5000));
  EXPECT_EQ(harness.coordinator().heartbeat("g", group.generation_id, survivor, std::nullopt),
            GroupError::kNone);
  harness.advance(milliseconds(4999));
  EXPECT_EQ(harness.state("g"), "Stable");
  harness.advance(milliseconds(1));  // 10000 ms since the crashed member's last sync
  EXPECT_EQ(harness.state("g"), "PreparingRebalance");
  EXPECT_TRUE(
      harness.logged("member " + crashed + " sent no heartbeat within its session timeout"));
  EXPECT_EQ(harness.coordinator().heartbeat("g", group.generation_id, survivor, std::nullopt),
            GroupError::kRebalanceInProgress);
  JoinCapture rejoin = harness.join(CoordinatorHarness::join_params("g", survivor));
  ASSERT_TRUE(rejoin.done());
  EXPECT_EQ(rejoin.result().members.size(), 1u);
  EXPECT_EQ(harness.coordinator().heartbeat("g", group.generation_id, crashed, std::nullopt),
            GroupError::kUnknownMemberId);
}

TEST(CoordinatorTimeout, ExpiryIsAppliedBeforeACallThatArrivesTooLate) {
  CoordinatorHarness harness;
  StableGroup group = harness.form_stable_group("g", 1);
  harness.clock().advance(milliseconds(10000));  // no poll_timers() in between
  EXPECT_EQ(
      harness.coordinator().heartbeat("g", group.generation_id, group.member_ids[0], std::nullopt),
      GroupError::kUnknownMemberId);
}

TEST(CoordinatorTimeout, RebalanceTimeoutRemovesMembersThatDidNotRejoin) {
  CoordinatorHarness harness;
  // Long sessions, short rebalance timeout: only the rebalance timeout can decide.
  std::vector<std::string> ids;
  for (int joined = 0; joined < 3; ++joined) {
    JoinCapture newcomer =
        harness.join(CoordinatorHarness::join_params("g", "", protocols({"range"}), 60000, 5000));
    for (const std::string& id : ids) {
      harness.join(CoordinatorHarness::join_params("g", id, protocols({"range"}), 60000, 5000));
    }
    ids.push_back(newcomer.result().member_id);
  }
  JoinCapture newcomer =
      harness.join(CoordinatorHarness::join_params("g", "", protocols({"range"}), 60000, 5000));
  JoinCapture second =
      harness.join(CoordinatorHarness::join_params("g", ids[1], protocols({"range"}), 60000, 5000));
  harness.advance(milliseconds(4999));
  EXPECT_FALSE(second.done());
  harness.advance(milliseconds(1));
  ASSERT_TRUE(second.done() && newcomer.done());
  EXPECT_TRUE(harness.logged("did not rejoin within the rebalance timeout of 5000 ms"));
  EXPECT_TRUE(harness.logged(ids[0]));
  EXPECT_EQ(harness.coordinator().describe_group("g").members.size(), 2u);
  // The leader did not rejoin: the earliest member that did leads now.
  EXPECT_EQ(second.result().leader_id, ids[1]);
  EXPECT_EQ(second.result().members.size(), 2u);
  EXPECT_EQ(
      harness.coordinator().heartbeat("g", second.result().generation_id, ids[2], std::nullopt),
      GroupError::kUnknownMemberId);
}

TEST(CoordinatorTimeout, MembersParkedInJoinDoNotExpire) {
  CoordinatorHarness harness;
  StableGroup group = harness.form_stable_group("g", 2);
  JoinCapture leader = harness.join(CoordinatorHarness::join_params("g", group.member_ids[0]));
  // The leader waits 25 s (session timeout 10 s) for a follower that heartbeats
  // but does not rejoin; only the rebalance timeout (30 s) ends the wait.
  for (int step = 0; step < 5; ++step) {
    harness.advance(milliseconds(5000));
    EXPECT_EQ(harness.coordinator().heartbeat("g", group.generation_id, group.member_ids[1],
                                              std::nullopt),
              GroupError::kRebalanceInProgress);
  }
  EXPECT_FALSE(leader.done());
  EXPECT_EQ(harness.coordinator().describe_group("g").members.size(), 2u);
  harness.advance(milliseconds(5000));
  ASSERT_TRUE(leader.done());
  EXPECT_EQ(leader.result().members.size(), 1u);
}

TEST(CoordinatorTimeout, MembersThatDoNotSyncInTimeAreRemoved) {
  CoordinatorHarness harness;
  std::string leader_id =
      harness.join(CoordinatorHarness::join_params("g", "", protocols({"range"}), 60000, 5000))
          .result()
          .member_id;
  JoinCapture follower =
      harness.join(CoordinatorHarness::join_params("g", "", protocols({"range"}), 60000, 5000));
  harness.join(CoordinatorHarness::join_params("g", leader_id, protocols({"range"}), 60000, 5000));
  std::int32_t generation = follower.result().generation_id;
  harness.sync("g", generation, leader_id, {});
  EXPECT_EQ(harness.state("g"), "Stable");
  harness.advance(milliseconds(4999));
  EXPECT_EQ(harness.state("g"), "Stable");
  harness.advance(milliseconds(1));
  EXPECT_TRUE(harness.logged("removed " + follower.result().member_id +
                             ": no SyncGroup within the rebalance timeout of 5000 ms"));
  EXPECT_EQ(harness.state("g"), "PreparingRebalance");
  EXPECT_EQ(harness.sync("g", generation, follower.result().member_id).result().error,
            GroupError::kUnknownMemberId);
}

TEST(CoordinatorTimeout, LeaderThatNeverSyncsIsRemovedAndReleasesTheFollowers) {
  CoordinatorHarness harness;
  std::string leader_id =
      harness.join(CoordinatorHarness::join_params("g", "", protocols({"range"}), 60000, 5000))
          .result()
          .member_id;
  JoinCapture follower =
      harness.join(CoordinatorHarness::join_params("g", "", protocols({"range"}), 60000, 5000));
  harness.join(CoordinatorHarness::join_params("g", leader_id, protocols({"range"}), 60000, 5000));
  SyncCapture parked =
      harness.sync("g", follower.result().generation_id, follower.result().member_id);
  harness.advance(milliseconds(5000));
  EXPECT_EQ(parked.result().error, GroupError::kRebalanceInProgress);
  // The follower alone rejoins and leads the next generation.
  JoinCapture rejoin = harness.join(CoordinatorHarness::join_params(
      "g", follower.result().member_id, protocols({"range"}), 60000, 5000));
  ASSERT_TRUE(rejoin.done());
  EXPECT_EQ(rejoin.result().leader_id, follower.result().member_id);
}

TEST(CoordinatorTimeout, AllMembersExpiringEmptiesTheGroup) {
  CoordinatorHarness harness;
  StableGroup group = harness.form_stable_group("g", 2);
  harness.coordinator().commit_offsets(OffsetCommitParams{
      "g", group.generation_id, group.member_ids[0], {{{"t", 0}, {7, ""}}}, std::nullopt});
  harness.advance(milliseconds(10000));
  EXPECT_EQ(harness.state("g"), "Empty");  // Stable -> Preparing -> Empty; offsets keep it
  EXPECT_EQ(harness.coordinator().fetch_offsets("g", std::nullopt).size(), 1u);
}

TEST(CoordinatorTimeout, NewMemberParkedTooLongIsDropped) {
  CoordinatorConfig config;
  config.new_member_join_timeout_ms = 1000;
  CoordinatorHarness harness(config);
  StableGroup group = harness.form_stable_group("g", 1);
  JoinCapture newcomer = harness.join(CoordinatorHarness::join_params("g"));
  harness.advance(milliseconds(1000));
  EXPECT_EQ(newcomer.result().error, GroupError::kUnknownMemberId);
  EXPECT_TRUE(harness.logged("for its first join"));
}

TEST(CoordinatorTimeout, NextDeadlineIsTheEarliestExpiry) {
  CoordinatorHarness harness;
  EXPECT_FALSE(harness.coordinator().next_deadline().has_value());
  Clock::TimePoint start = harness.clock().now();
  StableGroup group = harness.form_stable_group("g", 1);
  // The member synced at `start`: its session ends 10 s later.
  EXPECT_EQ(harness.coordinator().next_deadline(), start + milliseconds(10000));
  harness.advance(milliseconds(3000));
  harness.coordinator().heartbeat("g", group.generation_id, group.member_ids[0], std::nullopt);
  EXPECT_EQ(harness.coordinator().next_deadline(), start + milliseconds(13000));
}

TEST(CoordinatorTimeout, ShutdownAnswersEveryParkedCall) {
  CoordinatorHarness harness;
  std::string leader_id = harness.join(CoordinatorHarness::join_params("g1")).result().member_id;
  JoinCapture follower = harness.join(CoordinatorHarness::join_params("g1"));
  harness.join(CoordinatorHarness::join_params("g1", leader_id));
  SyncCapture parked_sync = harness.sync("g1", 2, follower.result().member_id);
  harness.form_stable_group("g2", 1);
  JoinCapture parked_join = harness.join(CoordinatorHarness::join_params("g2"));
  ASSERT_FALSE(parked_sync.done() || parked_join.done());
  harness.coordinator().shutdown();
  EXPECT_EQ(parked_sync.result().error, GroupError::kNotCoordinator);
  EXPECT_EQ(parked_join.result().error, GroupError::kNotCoordinator);
  EXPECT_TRUE(harness.coordinator().list_groups().empty());
}

TEST(CoordinatorTimeout, DestroyingTheCoordinatorAnswersParkedCalls) {
  JoinCapture parked_join;
  {
    CoordinatorHarness harness;
    harness.form_stable_group("g", 1);
    parked_join = harness.join(CoordinatorHarness::join_params("g"));
    ASSERT_FALSE(parked_join.done());
  }
  EXPECT_EQ(parked_join.result().error, GroupError::kNotCoordinator);
}

}  // namespace
}  // namespace kgroups::broker
