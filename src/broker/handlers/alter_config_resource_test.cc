// SPDX-License-Identifier: Apache-2.0
#include "broker/handlers/alter_config_resource.h"

#include <gtest/gtest.h>

#include "broker/handlers/config_resource.h"
#include "protocol/record_batch_builder.h"

namespace kgroups::broker::handlers {
namespace {

using protocol::ErrorCode;

constexpr std::int32_t kNode = 7;

AlterOutcome replace(Cluster& cluster, std::string_view topic,
                     std::initializer_list<ConfigChange> changes, bool validate_only = false) {
  return alter_config_resource(cluster, kNode, kTopicResource, topic,
                               std::span(changes.begin(), changes.size()), AlterMode::kReplace,
                               validate_only);
}

AlterOutcome increment(Cluster& cluster, std::string_view topic,
                       std::initializer_list<ConfigChange> changes) {
  return alter_config_resource(cluster, kNode, kTopicResource, topic,
                               std::span(changes.begin(), changes.size()), AlterMode::kIncremental,
                               false);
}

TEST(AlterConfigResource, ReplacesTheTopicsConfigsAndTheirEffects) {
  Cluster cluster(1, false);
  ASSERT_EQ(cluster.create_topic("t", 2), ErrorCode::kNone);
  StoredTopic& topic = *cluster.find_topic("t");
  EXPECT_EQ(
      replace(cluster, "t", {{"segment.bytes", 0, "4096"}, {"retention.ms", 0, "60000"}}).error,
      ErrorCode::kNone);
  EXPECT_EQ(topic.config.retention_ms, 60000);
  EXPECT_EQ(topic.partitions[1].segment_limit(), 4096u);
  EXPECT_EQ(topic.set_configs.size(), 2u);
  // What is not named goes back to its default.
  EXPECT_EQ(replace(cluster, "t", {{"retention.ms", 0, "70000"}}).error, ErrorCode::kNone);
  EXPECT_EQ(topic.config.segment_bytes, TopicConfig{}.segment_bytes);
  EXPECT_EQ(topic.partitions[1].segment_limit(), BatchLog::kMaxSegmentBytes);
  EXPECT_EQ(topic.set_configs, (TopicConfigValues{{"retention.ms", "70000"}}));
}

TEST(AlterConfigResource, IsAllOrNothingAndValidateOnlyChangesNothing) {
  Cluster cluster(1, false);
  ASSERT_EQ(cluster.create_topic("t", 1), ErrorCode::kNone);
  StoredTopic& topic = *cluster.find_topic("t");
  const AlterOutcome bad =
      increment(cluster, "t", {{"retention.ms", 0, "1000"}, {"segment.ms", 0, "0"}});
  EXPECT_EQ(bad.error, ErrorCode::kInvalidConfig);
  EXPECT_NE(bad.message.find("segment.ms"), std::string::npos);
  EXPECT_TRUE(topic.set_configs.empty());
  EXPECT_EQ(topic.config.retention_ms, TopicConfig{}.retention_ms);

  EXPECT_EQ(replace(cluster, "t", {{"retention.ms", 0, "1000"}}, true).error, ErrorCode::kNone);
  EXPECT_TRUE(topic.set_configs.empty());
  EXPECT_EQ(topic.config.retention_ms, TopicConfig{}.retention_ms);
}

TEST(AlterConfigResource, IncrementalChangesKeepWhatIsNotNamed) {
  Cluster cluster(1, false);
  ASSERT_EQ(cluster.create_topic("t", 1), ErrorCode::kNone);
  StoredTopic& topic = *cluster.find_topic("t");
  ASSERT_EQ(increment(cluster, "t", {{"max.message.bytes", 0, "100"}}).error, ErrorCode::kNone);
  ASSERT_EQ(increment(cluster, "t", {{"cleanup.policy", 2, "compact"}}).error, ErrorCode::kNone);
  EXPECT_EQ(topic.config.max_message_bytes, 100);
  EXPECT_TRUE(topic.config.cleanup_compact);
  EXPECT_TRUE(topic.config.cleanup_delete);
  ASSERT_EQ(increment(cluster, "t", {{"max.message.bytes", 1, std::nullopt}}).error,
            ErrorCode::kNone);
  EXPECT_EQ(topic.config.max_message_bytes, TopicConfig{}.max_message_bytes);
}

TEST(AlterConfigResource, RetentionBytesDropsOldSegmentsAtOnce) {
  Cluster cluster(1, false);
  ASSERT_EQ(cluster.create_topic("t", 1), ErrorCode::kNone);
  StoredTopic& topic = *cluster.find_topic("t");
  ASSERT_EQ(replace(cluster, "t", {{"segment.bytes", 0, "1024"}}).error, ErrorCode::kNone);
  protocol::RecordBatchBuilder builder;
  const std::string value(900, 'v');
  builder.add(protocol::ByteView::of("k"), protocol::ByteView::of(value), 1000);
  const std::vector<std::uint8_t> batch = builder.build();
  for (int i = 0; i < 8; ++i) ASSERT_TRUE(cluster.append(topic, 0, batch, 0, 1000).has_value());
  ASSERT_EQ(topic.partitions[0].log_start_offset(), 0);
  ASSERT_EQ(
      replace(cluster, "t", {{"segment.bytes", 0, "1024"}, {"retention.bytes", 0, "2000"}}).error,
      ErrorCode::kNone);
  EXPECT_GT(topic.partitions[0].log_start_offset(), 0);
  EXPECT_LE(topic.partitions[0].size_bytes(), 2000u + batch.size());
}

TEST(AlterConfigResource, RefusesMissingTopicsOtherBrokersFixedConfigsAndOtherTypes) {
  Cluster cluster(1, false);
  EXPECT_EQ(replace(cluster, "missing", {}).error, ErrorCode::kUnknownTopicOrPartition);
  EXPECT_EQ(replace(cluster, "bad name", {}).error, ErrorCode::kInvalidTopicException);
  const std::initializer_list<ConfigChange> fixed{{"num.partitions", 0, "3"}};
  const AlterOutcome broker =
      alter_config_resource(cluster, kNode, kBrokerResource, "7",
                            std::span(fixed.begin(), fixed.size()), AlterMode::kIncremental, false);
  EXPECT_EQ(broker.error, ErrorCode::kInvalidRequest);
  EXPECT_NE(broker.message.find("Cannot update these configs dynamically: [num.partitions]"),
            std::string::npos)
      << broker.message;
  EXPECT_EQ(
      alter_config_resource(cluster, kNode, kBrokerResource, "8", {}, AlterMode::kReplace, false)
          .error,
      ErrorCode::kInvalidRequest);
  EXPECT_EQ(alter_config_resource(cluster, kNode, 16, "x", {}, AlterMode::kReplace, false).error,
            ErrorCode::kInvalidRequest);
}

TEST(RepeatedResources, MarksEveryMentionOfAResourceNamedTwice) {
  struct Resource {
    std::int8_t resource_type;
    std::string_view resource_name;
  };
  const std::vector<Resource> resources{{2, "a"}, {2, "b"}, {4, "a"}, {2, "a"}};
  EXPECT_EQ(repeated_resources(resources), (std::vector<bool>{true, false, false, true}));
}

}  // namespace
}  // namespace kgroups::broker::handlers
