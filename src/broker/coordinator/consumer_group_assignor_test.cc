// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include <random>

#include "broker/coordinator/range_server_assignor.h"
#include "broker/coordinator/server_assignor.h"
#include "broker/coordinator/uniform_assignor.h"
#include "group/range_assignor.h"

namespace kgroups::broker {
namespace {

TopicId topic(std::uint8_t n) {
  TopicId id{};
  id[15] = n;
  return id;
}

// Builds a spec whose members subscribe to `subscriptions[i]` with current targets
// `current[i]` (kept alive by the caller).
AssignmentSpec spec_of(const std::vector<std::vector<TopicId>>& subscriptions,
                       const std::vector<ConsumerAssignment>& current,
                       std::map<TopicId, std::int32_t> partition_counts) {
  AssignmentSpec spec;
  spec.partition_counts = std::move(partition_counts);
  for (std::size_t i = 0; i < subscriptions.size(); ++i) {
    spec.members.push_back(
        AssignmentMember{"member-" + std::to_string(i), subscriptions[i], &current[i]});
  }
  return spec;
}

// Checks that every partition of every subscribed topic is assigned once, to a
// subscriber.
void expect_complete(const AssignmentSpec& spec, const std::vector<ConsumerAssignment>& result) {
  ASSERT_EQ(result.size(), spec.members.size());
  for (const auto& [topic_id, count] : spec.partition_counts) {
    for (std::int32_t partition = 0; partition < count; ++partition) {
      int owners = 0;
      for (std::size_t i = 0; i < result.size(); ++i) {
        if (!contains(result[i], topic_id, partition)) continue;
        ++owners;
        const auto& topics = spec.members[i].subscribed_topic_ids;
        EXPECT_TRUE(std::find(topics.begin(), topics.end(), topic_id) != topics.end());
      }
      EXPECT_EQ(owners, 1) << "partition " << partition;
    }
  }
}

TEST(UniformAssignor, SplitsSixPartitionsThreeAndThree) {
  std::vector<ConsumerAssignment> current(2);
  AssignmentSpec spec = spec_of({{topic(1)}, {topic(1)}}, current, {{topic(1), 6}});
  std::vector<ConsumerAssignment> result = UniformAssignor().assign(spec);
  expect_complete(spec, result);
  EXPECT_EQ(partition_count(result[0]), 3u);
  EXPECT_EQ(partition_count(result[1]), 3u);
}

TEST(UniformAssignor, ThirdMemberTakesOnlyWhatBalanceNeeds) {
  std::vector<ConsumerAssignment> current(3);
  current[0][topic(1)] = {0, 1, 2};
  current[1][topic(1)] = {3, 4, 5};
  AssignmentSpec spec = spec_of({{topic(1)}, {topic(1)}, {topic(1)}}, current, {{topic(1), 6}});
  std::vector<ConsumerAssignment> result = UniformAssignor().assign(spec);
  expect_complete(spec, result);
  for (const ConsumerAssignment& assignment : result) EXPECT_EQ(partition_count(assignment), 2u);
  // Sticky: the first two keep two of their three each.
  EXPECT_EQ(result[0].at(topic(1)), (std::set<std::int32_t>{0, 1}));
  EXPECT_EQ(result[1].at(topic(1)), (std::set<std::int32_t>{3, 4}));
}

TEST(UniformAssignor, HomogeneousCountsDifferByAtMostOne) {
  std::mt19937 random(7);
  for (int trial = 0; trial < 200; ++trial) {
    const auto members = static_cast<std::size_t>(1 + random() % 7);
    std::map<TopicId, std::int32_t> counts{{topic(1), 1 + static_cast<int>(random() % 13)},
                                           {topic(2), 1 + static_cast<int>(random() % 5)}};
    std::vector<ConsumerAssignment> current(members);
    for (auto& assignment : current) {  // arbitrary, possibly stale, current targets
      for (int i = 0; i < 4; ++i) add_partition(assignment, topic(1), random() % 20);
    }
    AssignmentSpec spec =
        spec_of(std::vector<std::vector<TopicId>>(members, {topic(1), topic(2)}), current, counts);
    std::vector<ConsumerAssignment> result = UniformAssignor().assign(spec);
    expect_complete(spec, result);
    std::size_t low = SIZE_MAX;
    std::size_t high = 0;
    for (const ConsumerAssignment& assignment : result) {
      low = std::min(low, partition_count(assignment));
      high = std::max(high, partition_count(assignment));
    }
    EXPECT_LE(high - low, 1u) << "trial " << trial;
  }
}

TEST(UniformAssignor, HeterogeneousBalancesSharedTopics) {
  std::vector<ConsumerAssignment> current(3);
  current[0][topic(1)] = {0, 1, 2, 3, 4, 5};  // member 0 held everything of topic 1
  AssignmentSpec spec = spec_of({{topic(1)}, {topic(1), topic(2)}, {topic(2)}}, current,
                                {{topic(1), 6}, {topic(2), 2}});
  std::vector<ConsumerAssignment> result = UniformAssignor().assign(spec);
  expect_complete(spec, result);
  // 8 partitions over 3 members; member 2 can only take topic 2.
  EXPECT_GE(partition_count(result[0]), 2u);
  EXPECT_LE(partition_count(result[0]), 4u);
  EXPECT_GE(partition_count(result[2]), 1u);
}

TEST(RangeServerAssignor, MatchesTheModelsRangeAssignor) {
  std::vector<ConsumerAssignment> current(3);
  AssignmentSpec spec = spec_of({{topic(1), topic(2)}, {topic(1)}, {topic(1), topic(2)}}, current,
                                {{topic(1), 7}, {topic(2), 3}});
  std::vector<ConsumerAssignment> result = RangeServerAssignor().assign(spec);
  expect_complete(spec, result);
  const kgroups::RangeAssignor model;
  std::vector<std::string_view> all{"member-0", "member-1", "member-2"};
  std::vector<std::vector<int>> expected(3);
  model.assign(7, all, expected);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(result[i].at(topic(1)),
              std::set<std::int32_t>(expected[i].begin(), expected[i].end()));
  }
  std::vector<std::string_view> two{"member-0", "member-2"};
  std::vector<std::vector<int>> expected_two(2);
  model.assign(3, two, expected_two);
  EXPECT_EQ(result[0].at(topic(2)),
            std::set<std::int32_t>(expected_two[0].begin(), expected_two[0].end()));
  EXPECT_EQ(result[2].at(topic(2)),
            std::set<std::int32_t>(expected_two[1].begin(), expected_two[1].end()));
  EXPECT_FALSE(result[1].contains(topic(2)));
}

TEST(ServerAssignor, FindsUniformAndRangeOnly) {
  EXPECT_EQ(find_server_assignor("uniform")->name(), "uniform");
  EXPECT_EQ(find_server_assignor("range")->name(), "range");
  EXPECT_EQ(find_server_assignor("sticky"), nullptr);
}

}  // namespace
}  // namespace kgroups::broker
