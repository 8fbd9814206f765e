// SPDX-License-Identifier: Apache-2.0
//
// SPEC.md, "Options", assignors "sticky" and "cooperative-sticky": as balanced
// as possible and, subject to that, as few partitions as possible change owner
// (a property test over random join/leave sequences against a brute-force
// search of every balanced assignment), and SPEC's exact rule (shares by
// previous ownership, lowest-numbered partitions kept, leftovers dealt in
// ascending order) on hand-worked examples.

#include <algorithm>
#include <cstddef>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "kgroups/kgroups.h"

namespace {

using Partitions = std::vector<int>;
using Assignment = std::map<std::string, Partitions>;  // member id -> partitions

const std::vector<std::string>& sticky_assignors() {
  static const std::vector<std::string> kAssignors = {"sticky", "cooperative-sticky"};
  return kAssignors;
}

kgroups::TopicOptions with_assignor(const std::string& assignor) {
  kgroups::TopicOptions options;
  options.assignor = assignor;
  return options;
}

Assignment assignment_of(const kgroups::Topic& topic, const std::string& group,
                         const std::set<std::string>& members) {
  Assignment assignment;
  for (const std::string& member : members) assignment[member] = topic.assignment(group, member);
  return assignment;
}

// The partitions whose owner in `now` is their owner in `previous`.
int kept_partitions(const Assignment& previous, const Assignment& now) {
  int kept = 0;
  for (const auto& [member, partitions] : now) {
    auto before = previous.find(member);
    if (before == previous.end()) continue;
    for (int p : partitions) {
      kept += static_cast<int>(std::count(before->second.begin(), before->second.end(), p));
    }
  }
  return kept;
}

// Brute force: over every assignment of the n partitions to the members (m^n
// of them) that is balanced (counts differ by at most one), the most
// partitions kept by their previous owner.
int most_kept_by_a_balanced_assignment(int n, const std::vector<std::string>& members,
                                       const Assignment& previous) {
  const int m = static_cast<int>(members.size());
  std::vector<int> previous_owner(static_cast<std::size_t>(n), -1);  // member index or -1
  for (int i = 0; i < m; ++i) {
    auto before = previous.find(members[static_cast<std::size_t>(i)]);
    if (before == previous.end()) continue;
    for (int p : before->second) previous_owner[static_cast<std::size_t>(p)] = i;
  }
  std::vector<int> owner(static_cast<std::size_t>(n), 0);  // an odometer in base m
  int best = -1;
  while (true) {
    std::vector<int> counts(static_cast<std::size_t>(m), 0);
    int kept = 0;
    for (int p = 0; p < n; ++p) {
      ++counts[static_cast<std::size_t>(owner[static_cast<std::size_t>(p)])];
      if (owner[static_cast<std::size_t>(p)] == previous_owner[static_cast<std::size_t>(p)]) ++kept;
    }
    const auto [low, high] = std::minmax_element(counts.begin(), counts.end());
    if (*high - *low <= 1) best = std::max(best, kept);
    int digit = 0;
    while (digit < n && ++owner[static_cast<std::size_t>(digit)] == m) {
      owner[static_cast<std::size_t>(digit)] = 0;
      ++digit;
    }
    if (digit == n) break;
  }
  return best;
}

// Every partition owned by exactly one member, and no two counts more than one apart.
::testing::AssertionResult is_complete_and_balanced(int n, const Assignment& assignment) {
  std::vector<int> owners(static_cast<std::size_t>(n), 0);
  std::size_t low = static_cast<std::size_t>(n) + 1;
  std::size_t high = 0;
  for (const auto& [member, partitions] : assignment) {
    low = std::min(low, partitions.size());
    high = std::max(high, partitions.size());
    for (int p : partitions) {
      if (p < 0 || p >= n) return ::testing::AssertionFailure() << "partition " << p << " of " << n;
      ++owners[static_cast<std::size_t>(p)];
    }
  }
  for (int p = 0; p < n; ++p) {
    if (owners[static_cast<std::size_t>(p)] != 1) {
      return ::testing::AssertionFailure()
             << "partition " << p << " has " << owners[static_cast<std::size_t>(p)] << " owners";
    }
  }
  if (!assignment.empty() && high - low > 1) {
    return ::testing::AssertionFailure() << "counts from " << low << " to " << high;
  }
  return ::testing::AssertionSuccess();
}

std::string describe(const Assignment& assignment) {
  std::string text;
  for (const auto& [member, partitions] : assignment) {
    text += member + "[";
    for (int p : partitions) text += std::to_string(p) + " ";
    text += "] ";
  }
  return text;
}

// Random join/leave sequences of up to 4 members out of 5 ids over 1..6
// partitions; after every membership change the assignment must be complete,
// balanced, and keep as many partitions with their owner as the best balanced
// assignment does.
TEST(SpecSticky, BalancedAndMovesTheFewestPartitionsOverRandomJoinsAndLeaves) {
  const std::vector<std::string> ids = {"A", "B", "C", "D", "E"};
  for (const std::string& assignor : sticky_assignors()) {
    std::mt19937_64 rng(1402);
    for (int n = 1; n <= 6; ++n) {
      for (int run = 0; run < 12; ++run) {
        kgroups::Topic topic(n, with_assignor(assignor));
        std::set<std::string> members;
        std::string steps;
        for (int step = 0; step < 14; ++step) {
          const std::string& id = ids[rng() % ids.size()];
          const bool join = members.count(id) == 0;
          if (join && members.size() == 4) continue;
          const Assignment previous = assignment_of(topic, "g", members);
          if (join) {
            topic.join("g", id);
            members.insert(id);
          } else {
            topic.leave("g", id);
            members.erase(id);
          }
          steps += (join ? "+" : "-") + id + " ";
          if (members.empty()) continue;
          const Assignment now = assignment_of(topic, "g", members);
          ASSERT_TRUE(is_complete_and_balanced(n, now))
              << assignor << " n=" << n << " steps " << steps << "-> " << describe(now);
          const std::vector<std::string> sorted(members.begin(), members.end());
          EXPECT_EQ(kept_partitions(previous, now),
                    most_kept_by_a_balanced_assignment(n, sorted, previous))
              << assignor << " n=" << n << " steps " << steps << "from " << describe(previous)
              << "to " << describe(now);
        }
      }
    }
  }
}

TEST(SpecSticky, BruteForceSearchFindsTheObviousOptimum) {
  // The search itself can fail: with A owning everything, balance forces moves.
  EXPECT_EQ(most_kept_by_a_balanced_assignment(6, {"A", "B"}, {{"A", {0, 1, 2, 3, 4, 5}}}), 3);
  EXPECT_EQ(
      most_kept_by_a_balanced_assignment(6, {"A", "B", "C"}, {{"A", {0, 1, 2}}, {"B", {3, 4, 5}}}),
      4);
  EXPECT_EQ(most_kept_by_a_balanced_assignment(3, {"B"}, {{"A", {0, 1, 2}}}), 0);
  EXPECT_EQ(
      most_kept_by_a_balanced_assignment(5, {"B", "C"}, {{"A", {0, 1}}, {"B", {3, 4}}, {"C", {2}}}),
      3);
}

TEST(SpecSticky, SpecsExampleSixPartitionsOverThreeJoiningMembers) {
  for (const std::string& assignor : sticky_assignors()) {
    kgroups::Topic topic(6, with_assignor(assignor));
    topic.join("g", "A");
    EXPECT_EQ(assignment_of(topic, "g", {"A"}), (Assignment{{"A", {0, 1, 2, 3, 4, 5}}}))
        << assignor;
    topic.join("g", "B");
    EXPECT_EQ(assignment_of(topic, "g", {"A", "B"}),
              (Assignment{{"A", {0, 1, 2}}, {"B", {3, 4, 5}}}))
        << assignor;
    topic.join("g", "C");
    EXPECT_EQ(assignment_of(topic, "g", {"A", "B", "C"}),
              (Assignment{{"A", {0, 1}}, {"B", {3, 4}}, {"C", {2, 5}}}))
        << assignor;
  }
}

TEST(SpecSticky, LargerSharesGoToTheMembersThatOwnedMost) {
  for (const std::string& assignor : sticky_assignors()) {
    kgroups::Topic topic(5, with_assignor(assignor));
    topic.join("g", "A");
    topic.join("g", "B");  // A owned 5: A takes the larger share
    EXPECT_EQ(assignment_of(topic, "g", {"A", "B"}), (Assignment{{"A", {0, 1, 2}}, {"B", {3, 4}}}))
        << assignor;
    topic.join("g", "C");  // A (3) and B (2) owned most: shares 2, 2, 1
    EXPECT_EQ(assignment_of(topic, "g", {"A", "B", "C"}),
              (Assignment{{"A", {0, 1}}, {"B", {3, 4}}, {"C", {2}}}))
        << assignor;
    topic.leave("g", "A");  // B (2) over C (1) takes 3; A's 0, 1 dealt to B first, then C
    EXPECT_EQ(assignment_of(topic, "g", {"B", "C"}), (Assignment{{"B", {0, 3, 4}}, {"C", {1, 2}}}))
        << assignor;
  }
}

TEST(SpecSticky, EqualOwnershipGivesTheLargerShareToTheSmallerId) {
  for (const std::string& assignor : sticky_assignors()) {
    kgroups::Topic topic(4, with_assignor(assignor));
    topic.join("g", "B");
    topic.join("g", "A");  // B keeps 0, 1; A gets 2, 3
    EXPECT_EQ(assignment_of(topic, "g", {"A", "B"}), (Assignment{{"A", {2, 3}}, {"B", {0, 1}}}))
        << assignor;
    topic.join("g", "C");  // A and B owned 2 each: A, the smaller id, keeps 2
    EXPECT_EQ(assignment_of(topic, "g", {"A", "B", "C"}),
              (Assignment{{"A", {2, 3}}, {"B", {0}}, {"C", {1}}}))
        << assignor;
  }
}

TEST(SpecSticky, MembersAboveTheirShareGiveUpTheirHighestPartitions) {
  for (const std::string& assignor : sticky_assignors()) {
    kgroups::Topic topic(6, with_assignor(assignor));
    for (const char* id : {"A", "B", "C"}) topic.join("g", id);  // A [0, 1], B [3, 4], C [2, 5]
    topic.join("g", "D");  // shares 2, 2, 1, 1: C keeps 2, gives 5 to D
    EXPECT_EQ(assignment_of(topic, "g", {"A", "B", "C", "D"}),
              (Assignment{{"A", {0, 1}}, {"B", {3, 4}}, {"C", {2}}, {"D", {5}}}))
        << assignor;
    topic.leave("g", "B");  // shares 2, 2, 2: B's 3 to C, 4 to D
    EXPECT_EQ(assignment_of(topic, "g", {"A", "C", "D"}),
              (Assignment{{"A", {0, 1}}, {"C", {2, 3}}, {"D", {4, 5}}}))
        << assignor;
  }
}

TEST(SpecSticky, MembersBeyondThePartitionCountSitIdleAndTakeOverOnLeave) {
  for (const std::string& assignor : sticky_assignors()) {
    kgroups::Topic topic(2, with_assignor(assignor));
    for (const char* id : {"A", "B", "C"}) topic.join("g", id);
    EXPECT_EQ(assignment_of(topic, "g", {"A", "B", "C"}),
              (Assignment{{"A", {0}}, {"B", {1}}, {"C", {}}}))
        << assignor;
    topic.leave("g", "A");
    EXPECT_EQ(assignment_of(topic, "g", {"B", "C"}), (Assignment{{"B", {1}}, {"C", {0}}}))
        << assignor;
  }
}

TEST(SpecSticky, GroupFormedFromNothingStartsFromConsecutiveRanges) {
  for (const std::string& assignor : sticky_assignors()) {
    kgroups::Topic topic(6, with_assignor(assignor));
    for (const char* id : {"A", "B", "C"}) topic.join("g", id);
    for (const char* id : {"A", "B", "C"}) topic.leave("g", id);
    topic.join("g", "C");  // nothing owned before: C takes everything
    EXPECT_EQ(topic.assignment("g", "C"), (Partitions{0, 1, 2, 3, 4, 5})) << assignor;
    topic.join("g", "A");  // C keeps its lowest three; A is not first, as range would make it
    EXPECT_EQ(assignment_of(topic, "g", {"A", "C"}),
              (Assignment{{"A", {3, 4, 5}}, {"C", {0, 1, 2}}}))
        << assignor;
  }
}

TEST(SpecSticky, GroupsAreIndependent) {
  for (const std::string& assignor : sticky_assignors()) {
    kgroups::Topic topic(4, with_assignor(assignor));
    topic.join("g", "B");
    topic.join("h", "A");
    topic.join("g", "A");
    topic.join("h", "B");
    EXPECT_EQ(assignment_of(topic, "g", {"A", "B"}), (Assignment{{"A", {2, 3}}, {"B", {0, 1}}}))
        << assignor;
    EXPECT_EQ(assignment_of(topic, "h", {"A", "B"}), (Assignment{{"A", {0, 1}}, {"B", {2, 3}}}))
        << assignor;
  }
}

}  // namespace
