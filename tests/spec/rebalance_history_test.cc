// SPDX-License-Identifier: Apache-2.0
//
// SPEC.md, "Options", rebalances(group): one entry per join or leave that
// changed the membership, oldest first: generation, cause, consumer, and the
// new generation's members (sorted by id) with their assignment, revoked and
// assigned partitions, eagerly everything, cooperatively only what moved. The
// latest Topic::kRebalanceHistory entries are kept; generations count on.

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "kgroups/kgroups.h"

namespace {

using Members = std::vector<kgroups::MemberRebalance>;

kgroups::TopicOptions with_assignor(const std::string& assignor) {
  kgroups::TopicOptions options;
  options.assignor = assignor;
  return options;
}

kgroups::Rebalance entry(std::int64_t generation, const std::string& cause,
                         const std::string& consumer, Members members) {
  return {generation, cause, consumer, std::move(members)};
}

TEST(SpecRebalances, GroupThatNeverExistedHasNoHistory) {
  kgroups::Topic topic(3);
  topic.join("g", "A");
  EXPECT_TRUE(topic.rebalances("h").empty());
  EXPECT_TRUE(topic.rebalances("").empty());
}

TEST(SpecRebalances, RangeJoinsAndALeaveAreEager) {
  kgroups::Topic topic(6);
  topic.join("g", "B");
  topic.join("g", "A");
  topic.join("g", "C");
  topic.leave("g", "B");
  EXPECT_EQ(
      topic.rebalances("g"),
      (std::vector<kgroups::Rebalance>{
          entry(1, "join", "B", {{"B", {0, 1, 2, 3, 4, 5}, {}, {0, 1, 2, 3, 4, 5}}}),
          entry(2, "join", "A",
                {{"A", {0, 1, 2}, {}, {0, 1, 2}}, {"B", {3, 4, 5}, {0, 1, 2, 3, 4, 5}, {3, 4, 5}}}),
          entry(3, "join", "C",
                {{"A", {0, 1}, {0, 1, 2}, {0, 1}},
                 {"B", {2, 3}, {3, 4, 5}, {2, 3}},
                 {"C", {4, 5}, {}, {4, 5}}}),
          entry(4, "leave", "B",
                {{"A", {0, 1, 2}, {0, 1}, {0, 1, 2}}, {"C", {3, 4, 5}, {4, 5}, {3, 4, 5}}}),
      }));
}

TEST(SpecRebalances, CooperativeRevokesAndAssignsOnlyWhatMoves) {
  kgroups::Topic topic(6, with_assignor("cooperative-sticky"));
  for (const char* id : {"A", "B", "C"}) topic.join("g", id);
  topic.leave("g", "A");
  EXPECT_EQ(
      topic.rebalances("g"),
      (std::vector<kgroups::Rebalance>{
          entry(1, "join", "A", {{"A", {0, 1, 2, 3, 4, 5}, {}, {0, 1, 2, 3, 4, 5}}}),
          entry(2, "join", "B", {{"A", {0, 1, 2}, {3, 4, 5}, {}}, {"B", {3, 4, 5}, {}, {3, 4, 5}}}),
          entry(3, "join", "C",
                {{"A", {0, 1}, {2}, {}}, {"B", {3, 4}, {5}, {}}, {"C", {2, 5}, {}, {2, 5}}}),
          // shares 3, 3: A's 0, 1 go to B (owned 2, the smaller id) then C
          entry(4, "leave", "A", {{"B", {0, 3, 4}, {}, {0}}, {"C", {1, 2, 5}, {}, {1}}}),
      }));
}

TEST(SpecRebalances, EagerStickyRevokesEverythingEvenWhatItKeeps) {
  kgroups::Topic topic(6, with_assignor("sticky"));
  for (const char* id : {"A", "B", "C"}) topic.join("g", id);
  const std::vector<kgroups::Rebalance> history = topic.rebalances("g");
  ASSERT_EQ(history.size(), 3U);
  EXPECT_EQ(history[2], entry(3, "join", "C",
                              {{"A", {0, 1}, {0, 1, 2}, {0, 1}},
                               {"B", {3, 4}, {3, 4, 5}, {3, 4}},
                               {"C", {2, 5}, {}, {2, 5}}}));
}

TEST(SpecRebalances, RepeatedJoinOrLeaveAddsNoEntry) {
  kgroups::Topic topic(2);
  topic.join("g", "A");
  topic.join("g", "A");
  topic.leave("g", "Z");
  topic.leave("h", "A");
  ASSERT_EQ(topic.rebalances("g").size(), 1U);
  EXPECT_TRUE(topic.rebalances("h").empty());
}

TEST(SpecRebalances, IdleMembersAreListedWithEmptyLists) {
  kgroups::Topic topic(1, with_assignor("cooperative-sticky"));
  topic.join("g", "B");
  topic.join("g", "A");
  const std::vector<kgroups::Rebalance> history = topic.rebalances("g");
  ASSERT_EQ(history.size(), 2U);
  // B owned more before, so B keeps the one partition; A sits idle.
  EXPECT_EQ(history[1], entry(2, "join", "A", {{"A", {}, {}, {}}, {"B", {0}, {}, {}}}));
}

TEST(SpecRebalances, MembersAreSortedByUnsignedBytes) {
  kgroups::Topic topic(4, with_assignor("roundrobin"));
  for (const char* id : {"\x80", "b", "B", ""}) topic.join("g", id);
  const std::vector<kgroups::Rebalance> history = topic.rebalances("g");
  ASSERT_EQ(history.size(), 4U);
  std::vector<std::string> ids;
  for (const kgroups::MemberRebalance& member : history.back().members) ids.push_back(member.id);
  EXPECT_EQ(ids, (std::vector<std::string>{"", "B", "b", "\x80"}));
  EXPECT_EQ(history.back().consumer, "");
}

TEST(SpecRebalances, EmptiedGroupRecordsTheLastLeaveAndCountsOn) {
  kgroups::Topic topic(2);
  topic.join("g", "A");
  topic.leave("g", "A");
  topic.join("g", "B");
  EXPECT_EQ(topic.rebalances("g"), (std::vector<kgroups::Rebalance>{
                                       entry(1, "join", "A", {{"A", {0, 1}, {}, {0, 1}}}),
                                       entry(2, "leave", "A", {}),
                                       entry(3, "join", "B", {{"B", {0, 1}, {}, {0, 1}}}),
                                   }));
}

TEST(SpecRebalances, GroupsHaveTheirOwnHistories) {
  kgroups::Topic topic(2);
  topic.join("g", "A");
  topic.join("h", "B");
  topic.join("g", "C");
  ASSERT_EQ(topic.rebalances("g").size(), 2U);
  ASSERT_EQ(topic.rebalances("h").size(), 1U);
  EXPECT_EQ(topic.rebalances("h")[0].generation, 1);
  EXPECT_EQ(topic.rebalances("g")[1].generation, 2);
}

TEST(SpecRebalances, HistoryKeepsTheLatestEntriesAndGenerationsCountOn) {
  constexpr std::size_t kKept = kgroups::Topic::kRebalanceHistory;
  ASSERT_EQ(kKept, 1000U);  // SPEC.md: the most recent 1,000 rebalances
  kgroups::Topic topic(2);
  topic.join("g", "A");
  const std::int64_t total = static_cast<std::int64_t>(kKept) + 7;
  for (std::int64_t generation = 2; generation <= total; ++generation) {
    if (generation % 2 == 0) {
      topic.join("g", "B");
    } else {
      topic.leave("g", "B");
    }
    if (generation == static_cast<std::int64_t>(kKept)) {
      const std::vector<kgroups::Rebalance> full = topic.rebalances("g");
      ASSERT_EQ(full.size(), kKept);
      EXPECT_EQ(full.front().generation, 1);
    }
  }
  const std::vector<kgroups::Rebalance> history = topic.rebalances("g");
  ASSERT_EQ(history.size(), kKept);
  for (std::size_t i = 0; i < kKept; ++i) {
    const std::int64_t generation =
        total - static_cast<std::int64_t>(kKept) + 1 + static_cast<std::int64_t>(i);
    ASSERT_EQ(history[i].generation, generation) << "entry " << i;
    ASSERT_EQ(history[i].cause, generation % 2 == 0 ? "join" : "leave") << "entry " << i;
    ASSERT_EQ(history[i].consumer, "B");
  }
  EXPECT_EQ(history.front().generation, 8);
  EXPECT_EQ(history.back(), entry(total, "leave", "B", {{"A", {0, 1}, {0}, {0, 1}}}));
  topic.join("g", "B");
  EXPECT_EQ(topic.rebalances("g").back().generation, total + 1);
  EXPECT_EQ(topic.rebalances("g").size(), kKept);
}

}  // namespace
