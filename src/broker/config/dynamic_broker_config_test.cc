// SPDX-License-Identifier: Apache-2.0
#include "broker/config/dynamic_broker_config.h"

#include <gtest/gtest.h>

namespace kgroups::broker {
namespace {

TEST(DynamicBrokerConfig, KnowsTheBrokerConfigsThatSetTopicDefaults) {
  ASSERT_NE(find_dynamic_broker_config("log.retention.ms"), nullptr);
  EXPECT_EQ(find_dynamic_broker_config("log.retention.ms")->name, "retention.ms");
  EXPECT_EQ(find_dynamic_broker_config("message.max.bytes")->name, "max.message.bytes");
  EXPECT_EQ(find_dynamic_broker_config("log.cleanup.policy")->name, "cleanup.policy");
  EXPECT_EQ(find_dynamic_broker_config("log.roll.ms")->name, "segment.ms");
  EXPECT_EQ(find_dynamic_broker_config("retention.ms"), nullptr);  // a topic config's name
  EXPECT_EQ(find_dynamic_broker_config("log.message.format.version"), nullptr);
  EXPECT_EQ(find_dynamic_broker_config("num.partitions"), nullptr);
  EXPECT_EQ(find_dynamic_broker_config(""), nullptr);
}

TEST(DynamicBrokerConfig, ChecksValuesUnderTheBrokerConfigName) {
  const TopicConfigDefinition& retention = *find_dynamic_broker_config("log.retention.ms");
  EXPECT_EQ(check_dynamic_broker_config_value(retention, "1000"), std::nullopt);
  const auto bad = check_dynamic_broker_config_value(retention, "soon");
  ASSERT_TRUE(bad);
  EXPECT_NE(bad->find("log.retention.ms"), std::string::npos) << *bad;
}

TEST(DynamicBrokerConfig, ABrokersOwnValueWinsOverTheClusterWideOneWhichWinsOverTheFlag) {
  DynamicBrokerConfig dynamic(TopicConfig{.retention_ms = 5000, .retention_bytes = 7});
  dynamic.set_values(std::nullopt, {{"log.retention.ms", "2000"}, {"message.max.bytes", "300"}});
  dynamic.set_values(1, {{"log.retention.ms", "1000"}});
  std::string error;
  const auto on_one = dynamic.topic_defaults(1, error);
  ASSERT_TRUE(on_one) << error;
  EXPECT_EQ(on_one->retention_ms, 1000);
  EXPECT_EQ(on_one->max_message_bytes, 300);
  EXPECT_EQ(on_one->retention_bytes, 7);
  const auto on_two = dynamic.topic_defaults(2, error);
  ASSERT_TRUE(on_two) << error;
  EXPECT_EQ(on_two->retention_ms, 2000);
  EXPECT_EQ(dynamic.static_defaults().retention_ms, 5000);

  ASSERT_NE(dynamic.find(1, "log.retention.ms"), nullptr);
  EXPECT_EQ(*dynamic.find(std::nullopt, "log.retention.ms"), "2000");
  EXPECT_EQ(dynamic.find(2, "log.retention.ms"), nullptr);

  dynamic.set_values(1, {});
  EXPECT_TRUE(dynamic.values(1).empty());
  EXPECT_EQ(dynamic.topic_defaults(1, error)->retention_ms, 2000);
}

TEST(DynamicBrokerConfig, RefusesDefaultsThatContradictEachOther) {
  DynamicBrokerConfig dynamic;
  dynamic.set_values(std::nullopt, {{"log.cleaner.min.compaction.lag.ms", "10"},
                                    {"log.cleaner.max.compaction.lag.ms", "5"}});
  std::string error;
  EXPECT_FALSE(dynamic.topic_defaults(0, error));
  EXPECT_NE(error.find("min.compaction.lag.ms"), std::string::npos) << error;
}

}  // namespace
}  // namespace kgroups::broker
