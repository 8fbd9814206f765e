// SPDX-License-Identifier: Apache-2.0
//
// SPEC.md, "Options", assignor "roundrobin": partition p goes to the (p mod m)-th
// member in id order, on every join and leave; rebalances are eager.

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

kgroups::TopicOptions roundrobin() {
  kgroups::TopicOptions options;
  options.assignor = "roundrobin";
  return options;
}

TEST(SpecRoundRobin, SevenPartitionsOverThreeMembersAsSpecWritesIt) {
  kgroups::Topic topic(7, roundrobin());
  for (const char* id : {"A", "B", "C"}) topic.join("g", id);
  EXPECT_EQ(topic.assignment("g", "A"), (Partitions{0, 3, 6}));
  EXPECT_EQ(topic.assignment("g", "B"), (Partitions{1, 4}));
  EXPECT_EQ(topic.assignment("g", "C"), (Partitions{2, 5}));
}

TEST(SpecRoundRobin, PartitionGoesToItsIndexModuloMembersForEveryShape) {
  for (int n = 1; n <= 10; ++n) {
    for (int m = 1; m <= 12; ++m) {
      kgroups::Topic topic(n, roundrobin());
      std::vector<std::string> members;
      members.reserve(m);
      for (int i = 0; i < m; ++i) members.push_back("member-" + std::string(1, char('a' + i)));
      for (int i = m - 1; i >= 0; --i) topic.join("g", members[i]);  // reverse of sorted order
      for (int i = 0; i < m; ++i) {
        Partitions expected;
        for (int p = i; p < n; p += m) expected.push_back(p);
        EXPECT_EQ(topic.assignment("g", members[i]), expected)
            << n << " partitions, " << m << " members, member #" << i;
      }
    }
  }
}

TEST(SpecRoundRobin, MembersAreSortedByUnsignedBytes) {
  kgroups::Topic topic(5, roundrobin());
  for (const char* id : {"\x80", "b", "", "B", "a"}) topic.join("g", id);
  EXPECT_EQ(topic.assignment("g", ""), (Partitions{0}));
  EXPECT_EQ(topic.assignment("g", "B"), (Partitions{1}));
  EXPECT_EQ(topic.assignment("g", "a"), (Partitions{2}));
  EXPECT_EQ(topic.assignment("g", "b"), (Partitions{3}));
  EXPECT_EQ(topic.assignment("g", "\x80"), (Partitions{4}));
}

TEST(SpecRoundRobin, LeaveDealsAgainOverTheRemainingMembers) {
  kgroups::Topic topic(7, roundrobin());
  for (const char* id : {"A", "B", "C"}) topic.join("g", id);
  topic.leave("g", "B");
  EXPECT_EQ(topic.assignment("g", "A"), (Partitions{0, 2, 4, 6}));
  EXPECT_EQ(topic.assignment("g", "B"), (Partitions{}));
  EXPECT_EQ(topic.assignment("g", "C"), (Partitions{1, 3, 5}));
  topic.join("g", "D");
  EXPECT_EQ(topic.assignment("g", "A"), (Partitions{0, 3, 6}));
  EXPECT_EQ(topic.assignment("g", "C"), (Partitions{1, 4}));
  EXPECT_EQ(topic.assignment("g", "D"), (Partitions{2, 5}));
}

TEST(SpecRoundRobin, MembersBeyondThePartitionCountSitIdle) {
  kgroups::Topic topic(2, roundrobin());
  for (const char* id : {"C", "B", "A"}) topic.join("g", id);
  EXPECT_EQ(topic.assignment("g", "A"), (Partitions{0}));
  EXPECT_EQ(topic.assignment("g", "B"), (Partitions{1}));
  EXPECT_EQ(topic.assignment("g", "C"), (Partitions{}));
}

TEST(SpecRoundRobin, RebalanceIsEagerEveryPositionRestartsFromCommitted) {
  kgroups::Topic topic(4, roundrobin());
  for (int p = 0; p < 4; ++p) append_to_partition(topic, p, 3);
  topic.join("g", "A");
  topic.join("g", "B");  // A [0, 2], B [1, 3]
  ASSERT_EQ(topic.poll("g", "A").size(), 6U);
  ASSERT_EQ(topic.poll("g", "B").size(), 6U);
  topic.commit("g", "A", {{0, 2}});
  topic.join("g", "C");  // A [0, 3], B [1], C [2]: A keeps p0 yet restarts it
  EXPECT_EQ(topic.assignment("g", "A"), (Partitions{0, 3}));
  EXPECT_EQ(partition_offsets(topic.poll("g", "A")), spans({{0, 2, 3}, {3, 0, 3}}));
  EXPECT_EQ(partition_offsets(topic.poll("g", "B")), spans({{1, 0, 3}}));
  EXPECT_EQ(partition_offsets(topic.poll("g", "C")), spans({{2, 0, 3}}));
}

TEST(SpecRoundRobin, HistoryRecordsEagerRevokeAndAssign) {
  kgroups::Topic topic(4, roundrobin());
  topic.join("g", "A");
  topic.join("g", "B");
  const std::vector<kgroups::Rebalance> history = topic.rebalances("g");
  ASSERT_EQ(history.size(), 2U);
  EXPECT_EQ(history[1].members,
            (std::vector<kgroups::MemberRebalance>{{"A", {0, 2}, {0, 1, 2, 3}, {0, 2}},
                                                   {"B", {1, 3}, {}, {1, 3}}}));
}

}  // namespace
