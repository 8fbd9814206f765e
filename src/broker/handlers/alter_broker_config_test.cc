// SPDX-License-Identifier: Apache-2.0
#include "broker/handlers/alter_broker_config.h"

#include <gtest/gtest.h>

#include "broker/handlers/alter_config_resource.h"
#include "broker/handlers/config_resource.h"

namespace kgroups::broker::handlers {
namespace {

using protocol::ErrorCode;

constexpr std::int32_t kNode = 7;

// AlterConfigs (incremental: IncrementalAlterConfigs) on broker resource `name`.
AlterOutcome alter(Cluster& cluster, std::string_view name,
                   std::initializer_list<ConfigChange> changes, bool incremental = false,
                   bool validate_only = false) {
  return alter_config_resource(
      cluster, kNode, kBrokerResource, name, std::span(changes.begin(), changes.size()),
      incremental ? AlterMode::kIncremental : AlterMode::kReplace, validate_only);
}

TEST(AlterBrokerConfig, AClusterWideDefaultAppliesAtOnceToTopicsThatDoNotSetIt) {
  Cluster cluster(1, false);
  ASSERT_EQ(cluster.create_topic("inherits", 1), ErrorCode::kNone);
  ASSERT_EQ(cluster.create_topic("own", 1), ErrorCode::kNone);
  StoredTopic& own = *cluster.find_topic("own");
  ASSERT_EQ(alter_config_resource(cluster, kNode, kTopicResource, "own",
                                  std::initializer_list<ConfigChange>{{"retention.ms", 0, "9000"}},
                                  AlterMode::kReplace, false)
                .error,
            ErrorCode::kNone);

  const AlterOutcome done =
      alter(cluster, "", {{"log.retention.ms", 0, "1000"}, {"message.max.bytes", 0, "300"}});
  ASSERT_EQ(done.error, ErrorCode::kNone) << done.message;
  EXPECT_EQ(cluster.find_topic("inherits")->config.retention_ms, 1000);
  EXPECT_EQ(cluster.find_topic("inherits")->config.max_message_bytes, 300);
  EXPECT_EQ(own.config.retention_ms, 9000);
  EXPECT_EQ(own.config.max_message_bytes, 300);
  EXPECT_EQ(cluster.config().topic_defaults.retention_ms, 1000);  // for topics created later
  ASSERT_EQ(cluster.create_topic("later", 1), ErrorCode::kNone);
  EXPECT_EQ(cluster.find_topic("later")->config.retention_ms, 1000);

  // AlterConfigs replaces the whole set: message.max.bytes goes back to the flag's value.
  ASSERT_EQ(alter(cluster, "", {{"log.retention.ms", 0, "2000"}}).error, ErrorCode::kNone);
  EXPECT_EQ(cluster.find_topic("inherits")->config.retention_ms, 2000);
  EXPECT_EQ(cluster.find_topic("inherits")->config.max_message_bytes,
            TopicConfig{}.max_message_bytes);
}

TEST(AlterBrokerConfig, ABrokersOwnValueWinsAndDeletingItFallsBackToTheClusterWideOne) {
  Cluster cluster(1, false);
  ASSERT_EQ(cluster.create_topic("t", 1), ErrorCode::kNone);
  ASSERT_EQ(alter(cluster, "", {{"log.retention.ms", 0, "2000"}}, true).error, ErrorCode::kNone);
  ASSERT_EQ(alter(cluster, "7", {{"log.retention.ms", 0, "1000"}}, true).error, ErrorCode::kNone);
  EXPECT_EQ(cluster.find_topic("t")->config.retention_ms, 1000);
  ASSERT_EQ(alter(cluster, "7", {{"log.retention.ms", 1, std::nullopt}}, true).error,
            ErrorCode::kNone);
  EXPECT_EQ(cluster.find_topic("t")->config.retention_ms, 2000);
  EXPECT_TRUE(cluster.dynamic_broker_config().values(kNode).empty());
  EXPECT_EQ(alter(cluster, "8", {{"log.retention.ms", 0, "1"}}).error,
            ErrorCode::kInvalidRequest);  // not a broker of this cluster
}

TEST(AlterBrokerConfig, AppendsToTheCleanupPolicy) {
  Cluster cluster(1, false);
  ASSERT_EQ(cluster.create_topic("t", 1), ErrorCode::kNone);
  ASSERT_EQ(alter(cluster, "", {{"log.cleanup.policy", 2, "compact"}}, true).error,
            ErrorCode::kNone);
  EXPECT_TRUE(cluster.find_topic("t")->config.cleanup_compact);
  EXPECT_TRUE(cluster.find_topic("t")->config.cleanup_delete);
  EXPECT_EQ(*cluster.dynamic_broker_config().find(std::nullopt, "log.cleanup.policy"),
            "delete,compact");
}

TEST(AlterBrokerConfig, RefusesConfigsItCannotChangeAndChangesNothing) {
  Cluster cluster(1, false);
  const AlterOutcome refused = alter(
      cluster, "", {{"log.retention.ms", 0, "1000"}, {"num.io.threads", 0, "4"}, {"x", 0, "1"}});
  EXPECT_EQ(refused.error, ErrorCode::kInvalidRequest);
  EXPECT_NE(refused.message.find("Cannot update these configs dynamically: [num.io.threads, x]"),
            std::string::npos)
      << refused.message;
  EXPECT_TRUE(cluster.dynamic_broker_config().values(std::nullopt).empty());
  EXPECT_EQ(alter(cluster, "", {{"log.message.format.version", 0, "3.0"}}).error,
            ErrorCode::kInvalidRequest);
  EXPECT_EQ(alter(cluster, "", {{"retention.ms", 0, "1000"}}).error,
            ErrorCode::kInvalidRequest);  // the topic config's name, not the broker's
}

TEST(AlterBrokerConfig, InvalidValuesAndValidateOnlyChangeNothing) {
  Cluster cluster(1, false);
  ASSERT_EQ(cluster.create_topic("t", 1), ErrorCode::kNone);
  const AlterOutcome bad = alter(cluster, "", {{"log.retention.ms", 0, "soon"}});
  EXPECT_EQ(bad.error, ErrorCode::kInvalidConfig);
  EXPECT_NE(bad.message.find("log.retention.ms"), std::string::npos) << bad.message;
  EXPECT_EQ(alter(cluster, "", {{"log.retention.ms", 0, "1000"}}, false, true).error,
            ErrorCode::kNone);
  EXPECT_TRUE(cluster.dynamic_broker_config().values(std::nullopt).empty());
  EXPECT_EQ(cluster.find_topic("t")->config.retention_ms, TopicConfig{}.retention_ms);
  EXPECT_EQ(cluster.config().topic_defaults.retention_ms, TopicConfig{}.retention_ms);
}

TEST(AlterBrokerConfig, RefusesADefaultThatContradictsATopicsOwnConfig) {
  Cluster cluster(1, false);
  ASSERT_EQ(cluster.create_topic("t", 1), ErrorCode::kNone);
  ASSERT_EQ(alter_config_resource(
                cluster, kNode, kTopicResource, "t",
                std::initializer_list<ConfigChange>{{"min.compaction.lag.ms", 0, "1000"}},
                AlterMode::kReplace, false)
                .error,
            ErrorCode::kNone);
  const AlterOutcome bad = alter(cluster, "", {{"log.cleaner.max.compaction.lag.ms", 0, "500"}});
  EXPECT_EQ(bad.error, ErrorCode::kInvalidConfig);
  EXPECT_NE(bad.message.find("Topic 't'"), std::string::npos) << bad.message;
  EXPECT_TRUE(cluster.dynamic_broker_config().values(std::nullopt).empty());
}

}  // namespace
}  // namespace kgroups::broker::handlers
