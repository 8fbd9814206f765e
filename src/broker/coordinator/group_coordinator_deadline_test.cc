// SPDX-License-Identifier: Apache-2.0
//
// Deadlines across many groups, through the coordinator's calls: expiries fire at the
// right time in every group, and next_deadline() is the earliest over all groups as
// joins, heartbeats, leaves and group removal move it.
#include <gtest/gtest.h>

#include "broker/coordinator/coordinator_test_harness.h"

namespace kgroups::broker {
namespace {

using std::chrono::milliseconds;

std::string group_name(int index) { return "group-" + std::to_string(index); }

TEST(CoordinatorDeadlines, SessionsExpireOnTimeInEveryGroup) {
  CoordinatorHarness harness;
  constexpr int kGroups = 100;
  // Group i forms at i * 50 ms, so its member's session (10 s) ends at 10000 + i * 50.
  std::vector<StableGroup> groups;
  for (int i = 0; i < kGroups; ++i) {
    if (i > 0) harness.advance(milliseconds(50));
    groups.push_back(harness.form_stable_group(group_name(i), 1));
  }
  // Now at 4950 ms. The odd groups heartbeat at 7000 ms: their sessions end at 17000.
  harness.advance(milliseconds(2050));
  for (int i = 1; i < kGroups; i += 2) {
    ASSERT_EQ(harness.coordinator().heartbeat(group_name(i), groups[i].generation_id,
                                              groups[i].member_ids[0], std::nullopt),
              GroupError::kNone);
  }
  // Step to 12500 ms: even groups 0..50 expired (10000 + i * 50 <= 12500), the rest not.
  for (int elapsed = 7000; elapsed < 12500; elapsed += 500) harness.advance(milliseconds(500));
  for (int i = 0; i < kGroups; ++i) {
    const bool expired = i % 2 == 0 && 10000 + i * 50 <= 12500;
    EXPECT_EQ(harness.state(group_name(i)), expired ? "Dead" : "Stable") << group_name(i);
  }
  harness.advance(milliseconds(4499));  // 16999 ms: every even group, no odd one
  for (int i = 0; i < kGroups; ++i) {
    EXPECT_EQ(harness.state(group_name(i)), i % 2 == 0 ? "Dead" : "Stable") << group_name(i);
  }
  harness.advance(milliseconds(1));
  EXPECT_TRUE(harness.coordinator().list_groups().empty());
  EXPECT_FALSE(harness.coordinator().next_deadline().has_value());
}

TEST(CoordinatorDeadlines, ACallToOneGroupFirstAppliesAnotherGroupsDueExpiry) {
  CoordinatorHarness harness;
  harness.form_stable_group("early", 1);
  harness.clock().advance(milliseconds(5000));
  StableGroup late = harness.form_stable_group("late", 1);
  harness.clock().advance(milliseconds(5000));  // "early"'s session ends now; no poll_timers()
  EXPECT_EQ(
      harness.coordinator().heartbeat("late", late.generation_id, late.member_ids[0], std::nullopt),
      GroupError::kNone);
  EXPECT_TRUE(harness.logged("group \"early\": member "));
  EXPECT_EQ(harness.coordinator().list_groups().size(), 1u);
}

TEST(CoordinatorDeadlines, NextDeadlineIsTheEarliestAcrossGroups) {
  CoordinatorHarness harness;
  GroupCoordinator& coordinator = harness.coordinator();
  const Clock::TimePoint start = harness.clock().now();
  StableGroup a = harness.form_stable_group("a", 1);  // session ends at 10000
  harness.advance(milliseconds(1000));
  StableGroup b = harness.form_stable_group("b", 2);  // sessions end at 11000
  harness.advance(milliseconds(1000));
  StableGroup c = harness.form_stable_group("c", 1);  // session ends at 12000
  EXPECT_EQ(coordinator.next_deadline(), start + milliseconds(10000));
  // A heartbeat (at 2000) moves "a"'s end to 12000, behind "b".
  coordinator.heartbeat("a", a.generation_id, a.member_ids[0], std::nullopt);
  EXPECT_EQ(coordinator.next_deadline(), start + milliseconds(11000));
  // A member of "b" leaves: "b" rebalances, with a join deadline (rebalance timeout,
  // 30 s) besides the survivor's session, which has not rejoined yet.
  coordinator.leave_group("b", leaving({b.member_ids[1]}));
  EXPECT_EQ(coordinator.next_deadline(), start + milliseconds(11000));
  // The survivor leaves too: "b" empties out and is dropped with its deadlines.
  coordinator.leave_group("b", leaving({b.member_ids[0]}));
  EXPECT_EQ(harness.state("b"), "Dead");
  EXPECT_EQ(coordinator.next_deadline(), start + milliseconds(12000));
  // A new member joining "c" parks it in a rebalance; "c"'s deadlines are then its
  // join deadline (rebalance timeout) and the member's session; "a" still ends first.
  JoinCapture newcomer = harness.join(CoordinatorHarness::join_params("c"));
  EXPECT_FALSE(newcomer.done());
  EXPECT_EQ(coordinator.next_deadline(), start + milliseconds(12000));
  coordinator.leave_group("a", leaving(a.member_ids));
  EXPECT_EQ(coordinator.next_deadline(), start + milliseconds(12000));  // "c"'s old member
  // At 2500 the old member rejoins: the join phase completes and refreshes both sessions.
  harness.advance(milliseconds(500));
  harness.join(CoordinatorHarness::join_params("c", c.member_ids[0]));
  ASSERT_TRUE(newcomer.done());
  EXPECT_EQ(coordinator.next_deadline(), start + milliseconds(12500));
}

TEST(CoordinatorDeadlines, ListGroupsIsOrderedByIdWhateverTheCreationOrder) {
  CoordinatorHarness harness;
  const std::vector<std::string> ids = {"m", "b", "z", "a", "q", "c"};
  for (const std::string& id : ids) {
    harness.coordinator().commit_offsets({id, -1, "", {{{"orders", 0}, {1, ""}}}, std::nullopt});
  }
  std::vector<std::string> listed;
  for (const GroupListing& listing : harness.coordinator().list_groups()) {
    listed.push_back(listing.group_id);
  }
  EXPECT_EQ(listed, (std::vector<std::string>{"a", "b", "c", "m", "q", "z"}));
}

}  // namespace
}  // namespace kgroups::broker
