// SPDX-License-Identifier: Apache-2.0
#include "share/share_assignor.h"

#include <gtest/gtest.h>

#include <numeric>
#include <string_view>
#include <vector>

namespace kgroups::share {
namespace {

std::vector<std::vector<int>> assign_one_topic(std::vector<std::string_view> members,
                                               int partitions,
                                               std::vector<std::vector<int>> current = {}) {
  std::vector<int> all(static_cast<std::size_t>(partitions));
  std::iota(all.begin(), all.end(), 0);
  const std::vector<std::vector<int>> subscribed(members.size(), all);
  current.resize(members.size());
  const std::vector<int> topic_of(static_cast<std::size_t>(partitions), 0);
  return assign_share_partitions({members, subscribed, current, topic_of});
}

TEST(ShareAssignor, JavaStringHashMatchesJava) {
  EXPECT_EQ(java_string_hash(""), 0);
  EXPECT_EQ(java_string_hash("a"), 97);
  EXPECT_EQ(java_string_hash("hello"), 99162322);
  EXPECT_EQ(java_string_hash("consumer-1"), -166239206);
  EXPECT_EQ(java_string_hash("\xC3\xA9"), 233);  // é: one UTF-16 unit
  EXPECT_EQ(java_string_hash("\xF0\x9F\x98\x80"),
            1772899);  // 😀: a surrogate pair (values from Java)
}

TEST(ShareAssignor, SeveralMembersShareOnePartition) {
  EXPECT_EQ(assign_one_topic({"a", "b", "c"}, 1), (std::vector<std::vector<int>>{{0}, {0}, {0}}));
}

TEST(ShareAssignor, EveryPartitionGetsAMember) {
  const auto assignment = assign_one_topic({"a", "b"}, 6);
  std::vector<int> seen;
  for (const auto& mine : assignment) seen.insert(seen.end(), mine.begin(), mine.end());
  std::sort(seen.begin(), seen.end());
  seen.erase(std::unique(seen.begin(), seen.end()), seen.end());
  EXPECT_EQ(seen, (std::vector<int>{0, 1, 2, 3, 4, 5}));
  // 'a' hashes to 97 % 6 = 1, 'b' to 98 % 6 = 2; the other four go round robin.
  EXPECT_EQ(assignment, (std::vector<std::vector<int>>{{0, 1, 4}, {2, 3, 5}}));
}

TEST(ShareAssignor, MembersKeepWhatTheyHold) {
  // 'b' held 0 and 3 before 'c' joined: it keeps them. 'b' hashes to 98 % 4 = 2, 'c' to
  // 99 % 4 = 3; partition 1, unheld and unhashed, goes round robin to the first member.
  const auto assignment = assign_one_topic({"b", "c"}, 4, {{0, 3}, {}});
  EXPECT_EQ(assignment[0], (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(assignment[1], (std::vector<int>{3}));
}

TEST(ShareAssignor, DifferentSubscriptionsGetOnlyTheirTopics) {
  const std::vector<std::string_view> members{"a", "b"};
  // Topic 0 has partitions 0,1; topic 1 has 2,3. 'a' reads topic 0 only, 'b' both.
  const std::vector<std::vector<int>> subscribed{{0, 1}, {0, 1, 2, 3}};
  const std::vector<std::vector<int>> current(2);
  const std::vector<int> topic_of{0, 0, 1, 1};
  const auto assignment = assign_share_partitions({members, subscribed, current, topic_of});
  for (const int p : assignment[0]) EXPECT_LT(p, 2);
  std::vector<int> seen = assignment[0];
  seen.insert(seen.end(), assignment[1].begin(), assignment[1].end());
  std::sort(seen.begin(), seen.end());
  seen.erase(std::unique(seen.begin(), seen.end()), seen.end());
  EXPECT_EQ(seen, (std::vector<int>{0, 1, 2, 3}));
}

}  // namespace
}  // namespace kgroups::share
