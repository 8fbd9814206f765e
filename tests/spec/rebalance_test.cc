// SPDX-License-Identifier: Apache-2.0
//
// SPEC.md, join/leave in "Operations" and "Rebalance (range assignor, eager)":
// idempotent membership calls, range assignment over bytewise-sorted ids, eager
// reset of every member's positions, and independent groups.

#include <algorithm>
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

// A topic with `per_partition` records on each partition.
void fill_partitions(kgroups::Topic& topic, int per_partition) {
  for (int p = 0; p < topic.num_partitions(); ++p) append_to_partition(topic, p, per_partition);
}

TEST(SpecRebalance, SingleMemberOwnsEveryPartition) {
  kgroups::Topic topic(4);
  topic.join("g", "A");
  EXPECT_EQ(topic.assignment("g", "A"), (Partitions{0, 1, 2, 3}));
}

TEST(SpecRebalance, SixPartitionsOverThreeMembers) {
  kgroups::Topic topic(6);
  topic.join("g", "A");
  topic.join("g", "B");
  topic.join("g", "C");
  EXPECT_EQ(topic.assignment("g", "A"), (Partitions{0, 1}));
  EXPECT_EQ(topic.assignment("g", "B"), (Partitions{2, 3}));
  EXPECT_EQ(topic.assignment("g", "C"), (Partitions{4, 5}));
}

TEST(SpecRebalance, FirstMembersGetTheExtraPartitions) {
  kgroups::Topic topic(7);
  topic.join("g", "A");
  topic.join("g", "B");
  topic.join("g", "C");
  EXPECT_EQ(topic.assignment("g", "A"), (Partitions{0, 1, 2}));
  EXPECT_EQ(topic.assignment("g", "B"), (Partitions{3, 4}));
  EXPECT_EQ(topic.assignment("g", "C"), (Partitions{5, 6}));
}

TEST(SpecRebalance, MembersBeyondThePartitionCountSitIdle) {
  kgroups::Topic topic(2);
  topic.join("g", "A");
  topic.join("g", "B");
  topic.join("g", "C");
  EXPECT_EQ(topic.assignment("g", "A"), (Partitions{0}));
  EXPECT_EQ(topic.assignment("g", "B"), (Partitions{1}));
  EXPECT_EQ(topic.assignment("g", "C"), (Partitions{}));
}

TEST(SpecRebalance, RangeAssignmentForEveryShape) {
  for (int n = 1; n <= 10; ++n) {
    for (int m = 1; m <= 12; ++m) {
      kgroups::Topic topic(n);
      std::vector<std::string> members;
      members.reserve(m);
      for (int i = 0; i < m; ++i) members.push_back("member-" + std::string(1, char('a' + i)));
      for (int i = m - 1; i >= 0; --i) topic.join("g", members[i]);  // reverse of sorted order
      int next = 0;
      for (int i = 0; i < m; ++i) {
        Partitions expected;
        const int count = n / m + (i < n % m ? 1 : 0);
        for (int k = 0; k < count; ++k) expected.push_back(next++);
        EXPECT_EQ(topic.assignment("g", members[i]), expected)
            << n << " partitions, " << m << " members, member #" << i;
      }
      EXPECT_EQ(next, n);
    }
  }
}

TEST(SpecRebalance, MembersAreSortedByIdNotByJoinOrder) {
  kgroups::Topic topic(3);
  topic.join("g", "C");
  topic.join("g", "A");
  topic.join("g", "B");
  EXPECT_EQ(topic.assignment("g", "A"), (Partitions{0}));
  EXPECT_EQ(topic.assignment("g", "B"), (Partitions{1}));
  EXPECT_EQ(topic.assignment("g", "C"), (Partitions{2}));
}

TEST(SpecRebalance, EmptyConsumerIdIsAMemberAndSortsFirst) {
  kgroups::Topic topic(2);
  topic.join("g", "A");
  topic.join("g", "");
  EXPECT_EQ(topic.assignment("g", ""), (Partitions{0}));
  EXPECT_EQ(topic.assignment("g", "A"), (Partitions{1}));
}

TEST(SpecRebalance, EmptyGroupNameIsAGroup) {
  kgroups::Topic topic(2);
  topic.join("", "A");
  topic.join("", "B");
  EXPECT_EQ(topic.assignment("", "A"), (Partitions{0}));
  EXPECT_EQ(topic.assignment("", "B"), (Partitions{1}));
  EXPECT_EQ(topic.assignment("g", "A"), (Partitions{}));
}

TEST(SpecRebalance, IdsSortByUnsignedBytes) {
  // Bytewise ascending: upper case before lower case, a prefix before its
  // extensions, 0x7f before 0x80, and UTF-8 multi-byte ids after ASCII ones.
  const std::vector<std::string> sorted = {"Z", "a", "ab", "z", "\x7f", "\x80", "\xc3\xa9"};
  const std::vector<std::string> join_order = {"\x80", "z", "\xc3\xa9", "a", "\x7f", "Z", "ab"};
  kgroups::Topic topic(7);
  for (const std::string& id : join_order) topic.join("g", id);
  for (int i = 0; i < 7; ++i) {
    EXPECT_EQ(topic.assignment("g", sorted[i]), (Partitions{i})) << "member #" << i;
  }
}

TEST(SpecRebalance, IdsAreWholeByteStringsEvenWithNulBytes) {
  using std::string_literals::operator""s;
  kgroups::Topic topic(3);
  for (const std::string& id : {"a\0b"s, "a"s, "a\0"s}) topic.join("g", id);
  EXPECT_EQ(topic.assignment("g", "a"), (Partitions{0}));
  EXPECT_EQ(topic.assignment("g", "a\0"s), (Partitions{1}));
  EXPECT_EQ(topic.assignment("g", "a\0b"s), (Partitions{2}));
  topic.join("g\0x"s, "A");  // another group than "g"
  EXPECT_EQ(topic.assignment("g\0x"s, "A"), (Partitions{0, 1, 2}));
  EXPECT_EQ(topic.assignment("g", "A"), (Partitions{}));
  EXPECT_EQ(topic.assignment("g", "a"), (Partitions{0}));
}

TEST(SpecRebalance, LeaveRebalancesTheRemainingMembers) {
  kgroups::Topic topic(6);
  for (const char* id : {"A", "B", "C"}) topic.join("g", id);
  topic.leave("g", "B");
  EXPECT_EQ(topic.assignment("g", "A"), (Partitions{0, 1, 2}));
  EXPECT_EQ(topic.assignment("g", "B"), (Partitions{}));
  EXPECT_EQ(topic.assignment("g", "C"), (Partitions{3, 4, 5}));
}

TEST(SpecRebalance, JoinOfAMemberChangesNothingAndKeepsPositions) {
  kgroups::Topic topic(2);
  fill_partitions(topic, 4);
  topic.join("g", "A");
  topic.join("g", "B");
  ASSERT_EQ(partition_offsets(topic.poll("g", "A", 2)), spans({{0, 0, 2}}));
  ASSERT_EQ(partition_offsets(topic.poll("g", "B", 3)), spans({{1, 0, 3}}));
  topic.join("g", "A");  // already a member: no rebalance
  topic.join("g", "B");
  EXPECT_EQ(topic.assignment("g", "A"), (Partitions{0}));
  EXPECT_EQ(topic.assignment("g", "B"), (Partitions{1}));
  EXPECT_EQ(partition_offsets(topic.poll("g", "A")), spans({{0, 2, 4}}));
  EXPECT_EQ(partition_offsets(topic.poll("g", "B")), spans({{1, 3, 4}}));
}

TEST(SpecRebalance, LeaveOfANonMemberChangesNothingAndKeepsPositions) {
  kgroups::Topic topic(2);
  fill_partitions(topic, 4);
  topic.join("g", "A");
  ASSERT_EQ(partition_offsets(topic.poll("g", "A", 3)), spans({{0, 0, 3}}));
  topic.leave("g", "Z");        // not a member
  topic.leave("other", "A");    // a member of another group only
  topic.leave("unknown", "Q");  // a group that never existed
  EXPECT_EQ(topic.assignment("g", "A"), (Partitions{0, 1}));
  EXPECT_EQ(partition_offsets(topic.poll("g", "A")), spans({{0, 3, 4}, {1, 0, 4}}));
}

TEST(SpecRebalance, JoinResetsEveryMembersPositionsToCommitted) {
  kgroups::Topic topic(4);
  fill_partitions(topic, 3);
  topic.join("g", "A");
  topic.join("g", "B");  // A [0, 1], B [2, 3]
  ASSERT_EQ(topic.poll("g", "A").size(), 6U);
  ASSERT_EQ(topic.poll("g", "B").size(), 6U);
  topic.commit("g", "A", {{0, 1}});
  topic.commit("g", "B", {{2, 1}});
  topic.join("g", "C");  // A [0, 1], B [2], C [3]: A keeps its partitions, yet restarts
  EXPECT_EQ(partition_offsets(topic.poll("g", "A")), spans({{0, 1, 3}, {1, 0, 3}}));
  EXPECT_EQ(partition_offsets(topic.poll("g", "B")), spans({{2, 1, 3}}));
  EXPECT_EQ(partition_offsets(topic.poll("g", "C")), spans({{3, 0, 3}}));
}

TEST(SpecRebalance, LeaveResetsEveryRemainingMembersPositions) {
  kgroups::Topic topic(3);
  fill_partitions(topic, 3);
  for (const char* id : {"A", "B", "C"}) topic.join("g", id);  // A [0], B [1], C [2]
  for (const char* id : {"A", "B", "C"}) ASSERT_EQ(topic.poll("g", id).size(), 3U);
  topic.commit("g", "A", {{0, 2}});
  topic.leave("g", "C");  // A [0, 1], B [2]
  EXPECT_EQ(partition_offsets(topic.poll("g", "A")), spans({{0, 2, 3}, {1, 0, 3}}));
  EXPECT_EQ(partition_offsets(topic.poll("g", "B")), spans({{2, 0, 3}}));
}

TEST(SpecRebalance, IdleMemberJoiningStillResetsEveryPosition) {
  kgroups::Topic topic(2);
  fill_partitions(topic, 2);
  topic.join("g", "A");
  topic.join("g", "B");
  ASSERT_EQ(topic.poll("g", "A").size(), 2U);
  ASSERT_EQ(topic.poll("g", "B").size(), 2U);
  topic.commit("g", "B", {{1, 1}});
  topic.join("g", "C");  // C is idle; A and B keep the same partitions but restart
  EXPECT_EQ(topic.assignment("g", "C"), (Partitions{}));
  EXPECT_EQ(partition_offsets(topic.poll("g", "A")), spans({{0, 0, 2}}));
  EXPECT_EQ(partition_offsets(topic.poll("g", "B")), spans({{1, 1, 2}}));
}

TEST(SpecRebalance, IdleMemberLeavingStillResetsEveryPosition) {
  kgroups::Topic topic(2);
  fill_partitions(topic, 2);
  for (const char* id : {"A", "B", "C"}) topic.join("g", id);
  ASSERT_EQ(topic.poll("g", "A").size(), 2U);
  ASSERT_EQ(topic.poll("g", "B").size(), 2U);
  topic.leave("g", "C");
  EXPECT_EQ(partition_offsets(topic.poll("g", "A")), spans({{0, 0, 2}}));
  EXPECT_EQ(partition_offsets(topic.poll("g", "B")), spans({{1, 0, 2}}));
}

TEST(SpecRebalance, RejoiningAfterLeavingStartsFromCommitted) {
  kgroups::Topic topic(1);
  fill_partitions(topic, 5);
  topic.join("g", "A");
  ASSERT_EQ(topic.poll("g", "A", 4).size(), 4U);
  topic.commit("g", "A", {{0, 2}});
  topic.leave("g", "A");
  EXPECT_EQ(topic.assignment("g", "A"), (Partitions{}));
  EXPECT_TRUE(topic.poll("g", "A").empty());
  topic.join("g", "A");
  EXPECT_EQ(partition_offsets(topic.poll("g", "A")), spans({{0, 2, 5}}));
}

TEST(SpecRebalance, GroupWhoseLastMemberLeftKeepsCommittedOffsets) {
  kgroups::Topic topic(2);
  fill_partitions(topic, 3);
  topic.join("g", "A");
  ASSERT_EQ(topic.poll("g", "A", 4).size(), 4U);  // p0 0..2, p1 0
  topic.commit("g", "A");
  topic.leave("g", "A");
  EXPECT_EQ(topic.committed("g", 0), 3);
  EXPECT_EQ(topic.committed("g", 1), 1);
  topic.join("g", "B");
  EXPECT_EQ(partition_offsets(topic.poll("g", "B")), spans({{1, 1, 3}}));
}

TEST(SpecRebalance, NewMemberStartsFromCommittedOffsets) {
  kgroups::Topic topic(2);
  fill_partitions(topic, 3);
  topic.join("g", "A");
  ASSERT_EQ(topic.poll("g", "A").size(), 6U);
  topic.commit("g", "A", {{0, 3}, {1, 2}});
  topic.join("g", "B");  // A [0], B [1]
  EXPECT_EQ(partition_offsets(topic.poll("g", "B")), spans({{1, 2, 3}}));
  EXPECT_TRUE(topic.poll("g", "A").empty());
}

TEST(SpecRebalance, GroupsAreIndependent) {
  kgroups::Topic topic(2);
  fill_partitions(topic, 3);
  topic.join("g1", "A");
  topic.join("g2", "A");
  ASSERT_EQ(topic.poll("g1", "A", 2).size(), 2U);
  topic.commit("g1", "A");
  EXPECT_EQ(topic.committed("g1", 0), 2);
  EXPECT_EQ(topic.committed("g2", 0), 0);          // commits stay in their group
  ASSERT_EQ(topic.poll("g1", "A", 1).size(), 1U);  // g1's A now at p0 offset 3

  topic.join("g2", "B");  // rebalances g2 only
  EXPECT_EQ(topic.assignment("g1", "A"), (Partitions{0, 1}));
  EXPECT_EQ(topic.assignment("g1", "B"), (Partitions{}));
  EXPECT_EQ(topic.assignment("g2", "A"), (Partitions{0}));
  EXPECT_EQ(topic.assignment("g2", "B"), (Partitions{1}));
  // g1's A kept its position (offset 3 on p0), untouched by g2's rebalance.
  EXPECT_EQ(partition_offsets(topic.poll("g1", "A")), spans({{1, 0, 3}}));
  // g2 reads everything from 0, whatever g1 did.
  EXPECT_EQ(partition_offsets(topic.poll("g2", "A")), spans({{0, 0, 3}}));
  EXPECT_EQ(partition_offsets(topic.poll("g2", "B")), spans({{1, 0, 3}}));
  topic.leave("g2", "A");
  topic.leave("g2", "B");
  EXPECT_EQ(topic.assignment("g1", "A"), (Partitions{0, 1}));
  EXPECT_EQ(topic.committed("g1", 0), 2);
}

TEST(SpecRebalance, NonMemberOrUnknownGroupHasNoAssignment) {
  kgroups::Topic topic(3);
  topic.join("g", "A");
  EXPECT_EQ(topic.assignment("g", "B"), (Partitions{}));
  EXPECT_EQ(topic.assignment("unknown", "A"), (Partitions{}));
  EXPECT_EQ(topic.assignment("", ""), (Partitions{}));
}

}  // namespace
