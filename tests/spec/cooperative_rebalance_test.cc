// SPDX-License-Identifier: Apache-2.0
//
// SPEC.md, "Options", "Eager and cooperative": range, roundrobin and sticky
// restart every position from the committed offset on every rebalance;
// cooperative-sticky keeps a member's position on every partition it keeps,
// and only partitions that move start again from the committed offset. What a
// rebalance costs in replayed records is the difference.

#include <cstddef>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "kgroups/kgroups.h"
#include "reference_keys.h"
#include "topic_state.h"

namespace {

using kgroups_spec::append_to_partition;
using kgroups_spec::partition_offsets;
using kgroups_spec::spans;
using Partitions = std::vector<int>;

kgroups::TopicOptions with_assignor(const std::string& assignor) {
  kgroups::TopicOptions options;
  options.assignor = assignor;
  return options;
}

void fill_partitions(kgroups::Topic& topic, int per_partition) {
  for (int p = 0; p < topic.num_partitions(); ++p) append_to_partition(topic, p, per_partition);
}

TEST(SpecCooperative, LeaveKeepsPositionsOnKeptPartitionsAndRestartsMovedOnes) {
  kgroups::Topic topic(6, with_assignor("cooperative-sticky"));
  fill_partitions(topic, 5);
  for (const char* id : {"A", "B", "C"}) topic.join("g", id);  // A [0, 1], B [3, 4], C [2, 5]
  for (const char* id : {"A", "B", "C"}) ASSERT_EQ(topic.poll("g", id).size(), 10U);
  topic.commit("g", "C", {{2, 3}});
  topic.leave("g", "C");  // A [0, 1, 2], B [3, 4, 5]
  ASSERT_EQ(topic.assignment("g", "A"), (Partitions{0, 1, 2}));
  ASSERT_EQ(topic.assignment("g", "B"), (Partitions{3, 4, 5}));
  // A and B read on from where they were on 0, 1 and 3, 4; the moved 2 and 5
  // start from the committed offset (3, and 0 for no commit).
  EXPECT_EQ(partition_offsets(topic.poll("g", "A")), spans({{2, 3, 5}}));
  EXPECT_EQ(partition_offsets(topic.poll("g", "B")), spans({{5, 0, 5}}));
}

TEST(SpecCooperative, EagerStickyMakesTheSameMovesButRestartsEveryPartition) {
  kgroups::Topic topic(6, with_assignor("sticky"));
  fill_partitions(topic, 5);
  for (const char* id : {"A", "B", "C"}) topic.join("g", id);
  for (const char* id : {"A", "B", "C"}) ASSERT_EQ(topic.poll("g", id).size(), 10U);
  topic.commit("g", "C", {{2, 3}});
  topic.commit("g", "A", {{0, 4}});
  topic.leave("g", "C");
  ASSERT_EQ(topic.assignment("g", "A"), (Partitions{0, 1, 2}));
  ASSERT_EQ(topic.assignment("g", "B"), (Partitions{3, 4, 5}));
  EXPECT_EQ(partition_offsets(topic.poll("g", "A")), spans({{0, 4, 5}, {1, 0, 5}, {2, 3, 5}}));
  EXPECT_EQ(partition_offsets(topic.poll("g", "B")), spans({{3, 0, 5}, {4, 0, 5}, {5, 0, 5}}));
}

TEST(SpecCooperative, JoinKeepsTheOldMembersPositions) {
  kgroups::Topic topic(4, with_assignor("cooperative-sticky"));
  fill_partitions(topic, 3);
  topic.join("g", "A");
  ASSERT_EQ(topic.poll("g", "A", 5).size(), 5U);  // p0 0..2, p1 0..1
  topic.commit("g", "A", {{3, 1}});
  topic.join("g", "B");  // A keeps 0, 1; B takes 2, 3
  ASSERT_EQ(topic.assignment("g", "A"), (Partitions{0, 1}));
  ASSERT_EQ(topic.assignment("g", "B"), (Partitions{2, 3}));
  EXPECT_EQ(partition_offsets(topic.poll("g", "A")), spans({{1, 2, 3}}));
  EXPECT_EQ(partition_offsets(topic.poll("g", "B")), spans({{2, 0, 3}, {3, 1, 3}}));
}

TEST(SpecCooperative, PartitionThatMovesAwayAndBackRestartsFromCommitted) {
  kgroups::Topic topic(4, with_assignor("cooperative-sticky"));
  fill_partitions(topic, 3);
  topic.join("g", "A");
  ASSERT_EQ(topic.poll("g", "A").size(), 12U);
  topic.commit("g", "A", {{3, 2}});
  topic.join("g", "B");   // 2, 3 move to B
  topic.leave("g", "B");  // and back to A: A keeps its place on 0, 1 only
  ASSERT_EQ(topic.assignment("g", "A"), (Partitions{0, 1, 2, 3}));
  EXPECT_EQ(partition_offsets(topic.poll("g", "A")), spans({{2, 0, 3}, {3, 2, 3}}));
}

TEST(SpecCooperative, IdleMemberJoiningMovesNothingAndReplaysNothing) {
  kgroups::Topic topic(2, with_assignor("cooperative-sticky"));
  fill_partitions(topic, 4);
  topic.join("g", "A");
  topic.join("g", "B");
  ASSERT_EQ(topic.poll("g", "A").size(), 4U);
  ASSERT_EQ(topic.poll("g", "B", 1).size(), 1U);
  topic.join("g", "C");
  EXPECT_EQ(topic.assignment("g", "C"), (Partitions{}));
  EXPECT_TRUE(topic.poll("g", "A").empty());
  EXPECT_EQ(partition_offsets(topic.poll("g", "B")), spans({{1, 1, 4}}));
  append_to_partition(topic, 0, 1);
  EXPECT_EQ(partition_offsets(topic.poll("g", "A")), spans({{0, 4, 5}}));
}

TEST(SpecCooperative, CommitAfterARebalanceStoresTheKeptPositions) {
  kgroups::Topic topic(2, with_assignor("cooperative-sticky"));
  fill_partitions(topic, 4);
  topic.join("g", "A");
  ASSERT_EQ(topic.poll("g", "A", 3).size(), 3U);  // p0 0..2
  topic.join("g", "B");                           // A keeps 0, B takes 1
  topic.commit("g", "A");
  EXPECT_EQ(topic.committed("g", 0), 3);
  EXPECT_EQ(topic.committed("g", 1), 0);
}

// Every eager assignor restarts even the partitions a member keeps.
TEST(SpecCooperative, EveryEagerAssignorRestartsKeptPartitions) {
  for (const char* assignor : {"range", "roundrobin", "sticky"}) {
    kgroups::Topic topic(2, with_assignor(assignor));
    fill_partitions(topic, 4);
    topic.join("g", "A");
    topic.join("g", "B");  // A [0], B [1] under each of them
    ASSERT_EQ(topic.poll("g", "A").size(), 4U) << assignor;
    ASSERT_EQ(topic.poll("g", "B").size(), 4U) << assignor;
    topic.commit("g", "B", {{1, 1}});
    topic.join("g", "C");  // idle: nothing moves, yet A and B restart
    EXPECT_EQ(partition_offsets(topic.poll("g", "A")), spans({{0, 0, 4}})) << assignor;
    EXPECT_EQ(partition_offsets(topic.poll("g", "B")), spans({{1, 1, 4}})) << assignor;
  }
}

// The lesson: three consumers have read everything and committed nothing;
// C leaves. Eagerly the group reads the whole topic again; cooperatively only
// C's partitions.
TEST(SpecCooperative, ReplayAfterALeaveIsOnlyTheMovedPartitions) {
  std::vector<std::size_t> replayed;
  for (const char* assignor : {"range", "sticky", "cooperative-sticky"}) {
    kgroups::Topic topic(6, with_assignor(assignor));
    fill_partitions(topic, 10);
    for (const char* id : {"A", "B", "C"}) topic.join("g", id);
    for (const char* id : {"A", "B", "C"}) ASSERT_EQ(topic.poll("g", id, 1000).size(), 20U);
    topic.leave("g", "C");
    replayed.push_back(topic.poll("g", "A", 1000).size() + topic.poll("g", "B", 1000).size());
  }
  EXPECT_EQ(replayed, (std::vector<std::size_t>{60, 60, 20}));
}

TEST(SpecCooperative, LeavingMemberIsNoLongerAssigned) {
  kgroups::Topic topic(3, with_assignor("cooperative-sticky"));
  fill_partitions(topic, 2);
  for (const char* id : {"A", "B", "C"}) topic.join("g", id);
  topic.leave("g", "B");
  EXPECT_EQ(topic.assignment("g", "B"), (Partitions{}));
  EXPECT_TRUE(topic.poll("g", "B").empty());
  EXPECT_THROW(topic.commit("g", "B", {{1, 0}}), kgroups::NotAssignedError);
  topic.commit("g", "B");  // a non-member commits nothing
  for (int p = 0; p < 3; ++p) EXPECT_EQ(topic.committed("g", p), 0);
}

}  // namespace
