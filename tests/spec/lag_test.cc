// SPDX-License-Identifier: Apache-2.0
//
// SPEC.md, "Options", lag(group): end_offset(p) - committed(group, p) for every
// partition of the topic; a group that never existed lags by the end offset.
// Only commits change it, not polls or rebalances.

#include <cstdint>
#include <map>
#include <string>

#include <gtest/gtest.h>

#include "kgroups/kgroups.h"
#include "reference_keys.h"

namespace {

using kgroups_spec::append_to_partition;
using Lag = std::map<int, std::int64_t>;

TEST(SpecLag, NewTopicLagsByNothingOnEveryPartition) {
  kgroups::Topic topic(4);
  EXPECT_EQ(topic.lag("g"), (Lag{{0, 0}, {1, 0}, {2, 0}, {3, 0}}));
}

TEST(SpecLag, GroupThatNeverExistedLagsByTheEndOffset) {
  kgroups::Topic topic(3);
  append_to_partition(topic, 0, 5);
  append_to_partition(topic, 2, 1);
  EXPECT_EQ(topic.lag("never"), (Lag{{0, 5}, {1, 0}, {2, 1}}));
  EXPECT_EQ(topic.lag(""), (Lag{{0, 5}, {1, 0}, {2, 1}}));
  EXPECT_TRUE(topic.rebalances("never").empty());  // asking creates no group
}

TEST(SpecLag, LagIsEndOffsetMinusCommitted) {
  kgroups::Topic topic(3);
  append_to_partition(topic, 0, 5);
  append_to_partition(topic, 1, 3);
  topic.join("g", "A");
  topic.commit("g", "A", {{0, 2}, {1, 3}});
  EXPECT_EQ(topic.lag("g"), (Lag{{0, 3}, {1, 0}, {2, 0}}));
  append_to_partition(topic, 1, 4);
  append_to_partition(topic, 2, 2);
  EXPECT_EQ(topic.lag("g"), (Lag{{0, 3}, {1, 4}, {2, 2}}));
  topic.commit("g", "A", {{0, 0}});  // a rewind raises the lag again
  EXPECT_EQ(topic.lag("g"), (Lag{{0, 5}, {1, 4}, {2, 2}}));
}

TEST(SpecLag, PollsAndRebalancesDoNotChangeItCommitsDo) {
  kgroups::Topic topic(2);
  append_to_partition(topic, 0, 4);
  append_to_partition(topic, 1, 2);
  topic.join("g", "A");
  ASSERT_EQ(topic.poll("g", "A").size(), 6U);
  EXPECT_EQ(topic.lag("g"), (Lag{{0, 4}, {1, 2}}));
  topic.join("g", "B");
  EXPECT_EQ(topic.lag("g"), (Lag{{0, 4}, {1, 2}}));
  ASSERT_EQ(topic.poll("g", "A").size(), 4U);
  topic.commit("g", "A");
  EXPECT_EQ(topic.lag("g"), (Lag{{0, 0}, {1, 2}}));
  topic.leave("g", "A");
  topic.leave("g", "B");  // the emptied group keeps its commits and its lag
  EXPECT_EQ(topic.lag("g"), (Lag{{0, 0}, {1, 2}}));
}

TEST(SpecLag, GroupsLagIndependently) {
  kgroups::Topic topic(1);
  append_to_partition(topic, 0, 3);
  topic.join("g", "A");
  topic.join("h", "A");
  topic.commit("g", "A", {{0, 3}});
  EXPECT_EQ(topic.lag("g"), (Lag{{0, 0}}));
  EXPECT_EQ(topic.lag("h"), (Lag{{0, 3}}));
}

TEST(SpecLag, UncommittedPartitionLagsByItsEndUnderEveryPolicy) {
  for (const char* policy : {"earliest", "latest", "none"}) {
    kgroups::TopicOptions options;
    options.auto_offset_reset = policy;
    kgroups::Topic topic(2, options);
    append_to_partition(topic, 0, 3);
    topic.join("g", "A");  // "latest" starts at 3 yet has committed nothing
    EXPECT_EQ(topic.lag("g"), (Lag{{0, 3}, {1, 0}})) << policy;
    topic.commit("g", "A");  // "none": no position, nothing committed
    if (std::string(policy) == "none") {
      EXPECT_EQ(topic.lag("g"), (Lag{{0, 3}, {1, 0}})) << policy;
    } else if (std::string(policy) == "latest") {
      EXPECT_EQ(topic.lag("g"), (Lag{{0, 0}, {1, 0}})) << policy;
    } else {
      EXPECT_EQ(topic.lag("g"), (Lag{{0, 3}, {1, 0}})) << policy;
    }
  }
}

}  // namespace
