// SPDX-License-Identifier: Apache-2.0
#include "group/rebalance_history.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

namespace kgroups {
namespace {

using Assignment = std::vector<std::vector<int>>;

void record(RebalanceHistory& history, std::int64_t generation, bool joined,
            std::string_view consumer, const Assignment& assignment) {
  const RebalanceHistory::Recording recording =
      history.record(generation, joined, consumer, assignment.size());
  std::size_t end = 0;
  for (std::size_t member = 0; member < assignment.size(); ++member) {
    for (const int partition : assignment[member]) recording.partitions[end++] = partition;
    recording.ends[member] = end;
  }
}

std::vector<int> ids(const Rebalance& rebalance) {
  std::vector<int> sizes;
  for (const MemberRebalance& member : rebalance.members) {
    sizes.push_back(static_cast<int>(member.assignment.size()));
  }
  return sizes;
}

TEST(RebalanceHistory, RebuildsMembersAndEagerRevocations) {
  RebalanceHistory history(10, 4, RebalanceProtocol::kEager);
  record(history, 1, true, "A", {{0, 1, 2, 3}});
  record(history, 2, true, "B", {{0, 1}, {2, 3}});
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
  RebalanceHistory history(10, 4, RebalanceProtocol::kCooperative);
  record(history, 1, true, "A", {{0, 1, 2, 3}});
  record(history, 2, true, "B", {{0, 1}, {2, 3}});
  const std::vector<Rebalance> entries = history.entries();
  const MemberRebalance& a = entries[1].members[0];
  EXPECT_EQ(a.assignment, (std::vector<int>{0, 1}));
  EXPECT_EQ(a.revoked, (std::vector<int>{2, 3}));
  EXPECT_EQ(a.assigned, (std::vector<int>{}));
}

TEST(RebalanceHistory, KeepsTheLatestEntriesAndReplaysFromTheDroppedOnes) {
  RebalanceHistory history(2, 2, RebalanceProtocol::kCooperative);
  record(history, 1, true, "A", {{0, 1}});
  record(history, 2, true, "B", {{0}, {1}});
  record(history, 3, true, "C", {{0}, {1}, {}});
  record(history, 4, false, "A", {{0}, {1}});  // members B, C now
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

namespace kgroups {
namespace {

TEST(RebalanceHistory, FoldsOldEntriesInBatchesWithoutLosingMembership) {
  // 16 entries visible; folds 2 at a time. Consumers join and leave in a
  // pattern where the same id changes more than once inside one batch.
  RebalanceHistory history(16, 1, RebalanceProtocol::kEager);
  std::vector<std::string> members;  // the expected membership, kept plainly
  std::vector<std::vector<std::string>> expected;
  for (int step = 0; step < 100; ++step) {
    const std::string id = "m" + std::to_string(step % 5);
    const auto at = std::lower_bound(members.begin(), members.end(), id);
    const bool joined = at == members.end() || *at != id;
    if (joined) {
      members.insert(at, id);
    } else {
      members.erase(at);
    }
    Assignment assignment(members.size());
    if (!members.empty()) assignment[0] = {0};
    record(history, step + 1, joined, id, assignment);
    expected.push_back(members);
  }
  const std::vector<Rebalance> entries = history.entries();
  ASSERT_EQ(entries.size(), 16U);
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const std::size_t step = 100 - 16 + i;
    EXPECT_EQ(entries[i].generation, static_cast<std::int64_t>(step + 1));
    std::vector<std::string> ids;
    for (const MemberRebalance& member : entries[i].members) ids.push_back(member.id);
    EXPECT_EQ(ids, expected[step]) << "generation " << step + 1;
  }
}

}  // namespace
}  // namespace kgroups
