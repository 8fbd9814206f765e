// SPDX-License-Identifier: Apache-2.0
#include "broker/cluster.h"

#include <gtest/gtest.h>

#include <string>

namespace kgroups::broker {
namespace {

using protocol::ErrorCode;

TEST(Cluster, CreatesTopicsWithTheirPartitionCount) {
  Cluster cluster(6, true);
  EXPECT_EQ(cluster.create_topic("orders", 3), ErrorCode::kNone);
  ASSERT_NE(cluster.find_topic("orders"), nullptr);
  EXPECT_EQ(cluster.find_topic("orders")->partitions.size(), 3u);
  EXPECT_NE(cluster.find_partition("orders", 2), nullptr);
  EXPECT_EQ(cluster.find_partition("orders", 3), nullptr);
  EXPECT_EQ(cluster.find_partition("orders", -1), nullptr);
  EXPECT_EQ(cluster.find_partition("missing", 0), nullptr);
}

TEST(Cluster, RejectsDuplicateTopicsBadNamesAndPartitionCountsAndChangesNothing) {
  Cluster cluster(6, true);
  ASSERT_EQ(cluster.create_topic("orders", 3), ErrorCode::kNone);
  EXPECT_EQ(cluster.create_topic("orders", 5), ErrorCode::kTopicAlreadyExists);
  EXPECT_EQ(cluster.find_topic("orders")->partitions.size(), 3u);
  EXPECT_EQ(cluster.create_topic("bad name", 1), ErrorCode::kInvalidTopicException);
  EXPECT_EQ(cluster.create_topic("", 1), ErrorCode::kInvalidTopicException);
  EXPECT_EQ(cluster.create_topic("..", 1), ErrorCode::kInvalidTopicException);
  EXPECT_EQ(cluster.create_topic(std::string(250, 'a'), 1), ErrorCode::kInvalidTopicException);
  EXPECT_EQ(cluster.create_topic(std::string(249, 'a'), 1), ErrorCode::kNone);
  EXPECT_EQ(cluster.create_topic("zero", 0), ErrorCode::kInvalidPartitions);
  EXPECT_EQ(cluster.topics().size(), 2u);
}

TEST(Cluster, AutoCreatesUnknownTopicsWithTheDefaultPartitionCountOnlyWhenEnabled) {
  Cluster enabled(4, true);
  Topic* topic = enabled.find_or_create_topic("new.topic_1");
  ASSERT_NE(topic, nullptr);
  EXPECT_EQ(topic->partitions.size(), 4u);
  EXPECT_EQ(enabled.find_or_create_topic("new.topic_1"), topic);
  EXPECT_EQ(enabled.find_or_create_topic("bad/name"), nullptr);

  Cluster disabled(4, false);
  EXPECT_EQ(disabled.find_or_create_topic("new"), nullptr);
  EXPECT_TRUE(disabled.topics().empty());
}

}  // namespace
}  // namespace kgroups::broker
