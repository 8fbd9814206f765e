// SPDX-License-Identifier: Apache-2.0
#include "group/rebalance_history.h"

#include <gtest/gtest.h>

#include <vector>

namespace kgroups {
namespace {

std::vector<int> ids(const Rebalance& rebalance) {
  std::vector<int> sizes;
  for (const MemberRebalance& member : rebalance.members) {
    sizes.push_back(static_cast<int>(member.assignment.size()));
  }
  return sizes;
}

TEST(RebalanceHistory, RebuildsMembersAndEagerRevocations) {
  RebalanceHistory history(10, RebalanceProtocol::kEager);
  history.record(1, true, "A", std::vector<int>{0, 0, 0, 0});
  history.record(2, true, "B", std::vector<int>{0, 0, 1, 1});
  const std::vector<Rebalance> entries = history.entries();
  ASSERT_EQ(entries.size(), 2U);
  EXPECT_EQ(entries[0].members.size(), 1U);
  const Rebalance& second = entries[1];
  EXPECT_EQ(second.generation, 2);
  EXPECT_EQ(second.cause, "join");
  EXPECT_EQ(second.consumer, "B");
  ASSERT_EQ(second.members.size(), 2U);
  EXPECT_EQ(second.members[0].id, "A");
  EXPECT_EQ(second.members[0].revoked, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(second.members[0].assigned, (std::vector<int>{0, 1}));
  EXPECT_EQ(second.members[1].revoked, (std::vector<int>{}));
  EXPECT_EQ(second.members[1].assigned, (std::vector<int>{2, 3}));
}

TEST(RebalanceHistory, CooperativeRevokesAndAssignsOnlyWhatMoved) {
  RebalanceHistory history(10, RebalanceProtocol::kCooperative);
  history.record(1, true, "A", std::vector<int>{0, 0, 0, 0});
  history.record(2, true, "B", std::vector<int>{0, 0, 1, 1});
  const std::vector<Rebalance> entries = history.entries();
  const MemberRebalance& a = entries[1].members[0];
  EXPECT_EQ(a.assignment, (std::vector<int>{0, 1}));
  EXPECT_EQ(a.revoked, (std::vector<int>{2, 3}));
  EXPECT_EQ(a.assigned, (std::vector<int>{}));
}

TEST(RebalanceHistory, KeepsTheLatestEntriesAndReplaysFromTheDroppedOnes) {
  RebalanceHistory history(2, RebalanceProtocol::kCooperative);
  history.record(1, true, "A", std::vector<int>{0, 0});
  history.record(2, true, "B", std::vector<int>{0, 1});
  history.record(3, true, "C", std::vector<int>{0, 1});
  history.record(4, false, "A", std::vector<int>{0, 1});  // members B, C now
  const std::vector<Rebalance> entries = history.entries();
  ASSERT_EQ(entries.size(), 2U);
  EXPECT_EQ(entries[0].generation, 3);
  EXPECT_EQ(ids(entries[0]), (std::vector<int>{1, 1, 0}));
  const Rebalance& last = entries[1];
  EXPECT_EQ(last.cause, "leave");
  ASSERT_EQ(last.members.size(), 2U);
  EXPECT_EQ(last.members[0].id, "B");
  EXPECT_EQ(last.members[0].assignment, (std::vector<int>{0}));
  EXPECT_EQ(last.members[0].assigned, (std::vector<int>{0}));  // was A's
  EXPECT_EQ(last.members[1].assignment, (std::vector<int>{1}));
  EXPECT_EQ(last.members[1].revoked, (std::vector<int>{}));
}

}  // namespace
}  // namespace kgroups
