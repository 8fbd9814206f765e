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

TEST(DescribeBrokerConfigs, ReportsTheFlagsReadOnly) {
  BrokerConfig config;
  config.node_id = 3;
  config.default_partitions = 1;  // Kafka's default too
  config.log_retention_ms = 5000;
  const auto configs = describe_broker_configs(config);
  EXPECT_TRUE(std::ranges::is_sorted(configs, {}, &DescribedConfig::name));
  EXPECT_TRUE(std::ranges::all_of(configs, &DescribedConfig::read_only));
  EXPECT_EQ(named(configs, "broker.id").value, "3");
  EXPECT_EQ(named(configs, "num.partitions").source, ConfigSource::kDefault);
  EXPECT_EQ(named(configs, "log.retention.ms").value, "5000");
  EXPECT_EQ(named(configs, "log.retention.ms").source, ConfigSource::kStaticBroker);
}

}  // namespace
}  // namespace kgroups::broker
