// SPDX-License-Identifier: Apache-2.0
#include "topic_selection.h"

#include <gtest/gtest.h>

namespace kgroups::cli {
namespace {

TEST(TopicSelection, ATopicAloneMeansEveryPartition) {
  EXPECT_EQ(parse_topic_selection("orders"), (TopicSelection{"orders", {}}));
}

TEST(TopicSelection, PartitionsFollowTheColon) {
  EXPECT_EQ(parse_topic_selection("orders:0,2,11"), (TopicSelection{"orders", {0, 2, 11}}));
  EXPECT_EQ(parse_topic_selection("a.b-c_d:3"), (TopicSelection{"a.b-c_d", {3}}));
}

TEST(TopicSelection, RejectsMalformedSelections) {
  for (const char* text : {"", ":0", "orders:", "orders:1,", "orders:,1", "orders:-1", "orders:x",
                           "orders:1x", "orders:99999999999"}) {
    EXPECT_FALSE(parse_topic_selection(text).has_value()) << text;
  }
}

}  // namespace
}  // namespace kgroups::cli
