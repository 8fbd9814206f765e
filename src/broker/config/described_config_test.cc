// SPDX-License-Identifier: Apache-2.0
#include "broker/config/described_config.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace kgroups::broker {
namespace {

const DescribedConfig& named(const std::vector<DescribedConfig>& configs, std::string_view name) {
  const auto it = std::ranges::find(configs, name, &DescribedConfig::name);
  EXPECT_NE(it, configs.end()) << name;
  return *it;
}

TEST(DescribeTopicConfigs, ListsEveryTopicConfigWithItsSource) {
  const TopicConfig defaults{.retention_ms = 1000};  // the broker's flag differs from Kafka's
  const auto configs = describe_topic_configs({{"segment.ms", "5000"}}, defaults);
  EXPECT_EQ(configs.size(), topic_config_catalog().size());

  const DescribedConfig& set = named(configs, "segment.ms");
  EXPECT_EQ(set.value, "5000");
  EXPECT_EQ(set.source, ConfigSource::kTopic);
  EXPECT_FALSE(set.read_only);
  EXPECT_EQ(set.type, ConfigType::kLong);
  ASSERT_EQ(set.synonyms.size(), 2u);  // the topic's value, then Kafka's default of log.roll.ms
  EXPECT_EQ(set.synonyms[1].name, "log.roll.ms");
  EXPECT_EQ(set.synonyms[1].value, "604800000");
  EXPECT_EQ(set.synonyms[1].source, ConfigSource::kDefault);

  const DescribedConfig& flag = named(configs, "retention.ms");
  EXPECT_EQ(flag.value, "1000");
  EXPECT_EQ(flag.source, ConfigSource::kStaticBroker);
  ASSERT_EQ(flag.synonyms.size(), 2u);
  EXPECT_EQ(flag.synonyms[0].name, "log.retention.ms");

  const DescribedConfig& kafka_default = named(configs, "cleanup.policy");
  EXPECT_EQ(kafka_default.value, "delete");
  EXPECT_EQ(kafka_default.source, ConfigSource::kDefault);
  EXPECT_EQ(kafka_default.type, ConfigType::kList);

  const DescribedConfig& no_synonym = named(configs, "remote.storage.enable");
  EXPECT_EQ(no_synonym.value, "false");
  EXPECT_EQ(no_synonym.source, ConfigSource::kDefault);
}

TEST(DescribeTopicConfigs, NamesTheDynamicBrokerConfigsTheTopicInherits) {
  DynamicBrokerConfig dynamic(TopicConfig{.retention_ms = 5000});
  dynamic.set_values(std::nullopt, {{"log.retention.ms", "2000"}, {"log.roll.ms", "60000"}});
  dynamic.set_values(3, {{"log.retention.ms", "1000"}});
  const auto configs = describe_topic_configs({{"segment.ms", "5000"}}, dynamic, 3);

  const DescribedConfig& retention = named(configs, "retention.ms");
  EXPECT_EQ(retention.value, "1000");
  EXPECT_EQ(retention.source, ConfigSource::kDynamicBroker);
  ASSERT_EQ(retention.synonyms.size(), 4u);  // this broker's, cluster-wide, flag, Kafka's
  EXPECT_EQ(retention.synonyms[0].name, "log.retention.ms");
  EXPECT_EQ(retention.synonyms[1].value, "2000");
  EXPECT_EQ(retention.synonyms[1].source, ConfigSource::kDynamicDefaultBroker);
  EXPECT_EQ(retention.synonyms[2].value, "5000");
  EXPECT_EQ(retention.synonyms[2].source, ConfigSource::kStaticBroker);
  EXPECT_EQ(retention.synonyms[3].source, ConfigSource::kDefault);

  const DescribedConfig& segment = named(configs, "segment.ms");  // the topic's own wins
  EXPECT_EQ(segment.value, "5000");
  EXPECT_EQ(segment.source, ConfigSource::kTopic);
  EXPECT_EQ(segment.synonyms[1].source, ConfigSource::kDynamicDefaultBroker);

  const auto elsewhere = describe_topic_configs({}, dynamic, 4);  // another broker
  EXPECT_EQ(named(elsewhere, "retention.ms").value, "2000");
  EXPECT_EQ(named(elsewhere, "retention.ms").source, ConfigSource::kDynamicDefaultBroker);
}

TEST(DescribeBrokerConfigs, ReportsTheFlagsReadOnlyAndTheTopicDefaultsWritable) {
  BrokerConfig config;
  config.node_id = 3;
  config.default_partitions = 1;  // Kafka's default too
  config.log_retention_ms = 5000;
  DynamicBrokerConfig dynamic(TopicConfig{.retention_ms = 5000});
  const auto configs = describe_broker_configs(config, dynamic);
  EXPECT_TRUE(std::ranges::is_sorted(configs, {}, &DescribedConfig::name));
  EXPECT_EQ(named(configs, "broker.id").value, "3");
  EXPECT_TRUE(named(configs, "broker.id").read_only);
  EXPECT_EQ(named(configs, "num.partitions").source, ConfigSource::kDefault);
  EXPECT_EQ(named(configs, "log.retention.ms").value, "5000");
  EXPECT_EQ(named(configs, "log.retention.ms").source, ConfigSource::kStaticBroker);
  EXPECT_FALSE(named(configs, "log.retention.ms").read_only);
  EXPECT_EQ(std::ranges::count(configs, "log.retention.ms", &DescribedConfig::name), 1);
  EXPECT_FALSE(named(configs, "log.cleanup.policy").read_only);

  dynamic.set_values(std::nullopt, {{"log.retention.ms", "2000"}});
  const auto changed = describe_broker_configs(config, dynamic);
  EXPECT_EQ(named(changed, "log.retention.ms").value, "2000");
  EXPECT_EQ(named(changed, "log.retention.ms").source, ConfigSource::kDynamicDefaultBroker);
  dynamic.set_values(3, {{"log.retention.ms", "1000"}});
  const auto own = describe_broker_configs(config, dynamic);
  EXPECT_EQ(named(own, "log.retention.ms").value, "1000");
  EXPECT_EQ(named(own, "log.retention.ms").source, ConfigSource::kDynamicBroker);
}

TEST(DescribeDefaultBrokerConfigs, ListsWhatIsSetClusterWide) {
  DynamicBrokerConfig dynamic;
  EXPECT_TRUE(describe_default_broker_configs(dynamic).empty());
  dynamic.set_values(std::nullopt, {{"message.max.bytes", "300"}});
  dynamic.set_values(3, {{"log.retention.ms", "1000"}});
  const auto configs = describe_default_broker_configs(dynamic);
  ASSERT_EQ(configs.size(), 1u);
  EXPECT_EQ(configs[0].name, "message.max.bytes");
  EXPECT_EQ(configs[0].value, "300");
  EXPECT_EQ(configs[0].source, ConfigSource::kDynamicDefaultBroker);
  EXPECT_EQ(configs[0].type, ConfigType::kInt);
}

}  // namespace
}  // namespace kgroups::broker
