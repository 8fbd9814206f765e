// SPDX-License-Identifier: Apache-2.0
#include "broker/config/topic_config_catalog.h"

#include <gtest/gtest.h>

#include <string>

namespace kgroups::broker {
namespace {

std::optional<std::string> check(std::string_view name, std::string_view value) {
  const TopicConfigDefinition* definition = find_topic_config(name);
  EXPECT_NE(definition, nullptr) << name;
  return definition == nullptr ? std::optional<std::string>("missing")
                               : check_topic_config_value(*definition, value);
}

TEST(TopicConfigCatalog, HoldsEveryKafkaTopicConfigAndNothingElse) {
  for (const std::string_view name : {"cleanup.policy",
                                      "compression.type",
                                      "delete.retention.ms",
                                      "file.delete.delay.ms",
                                      "flush.messages",
                                      "flush.ms",
                                      "follower.replication.throttled.replicas",
                                      "index.interval.bytes",
                                      "leader.replication.throttled.replicas",
                                      "local.retention.bytes",
                                      "local.retention.ms",
                                      "max.compaction.lag.ms",
                                      "max.message.bytes",
                                      "message.downconversion.enable",
                                      "message.format.version",
                                      "message.timestamp.after.max.ms",
                                      "message.timestamp.before.max.ms",
                                      "message.timestamp.difference.max.ms",
                                      "message.timestamp.type",
                                      "min.cleanable.dirty.ratio",
                                      "min.compaction.lag.ms",
                                      "min.insync.replicas",
                                      "preallocate",
                                      "remote.storage.enable",
                                      "retention.bytes",
                                      "retention.ms",
                                      "segment.bytes",
                                      "segment.index.bytes",
                                      "segment.jitter.ms",
                                      "segment.ms",
                                      "unclean.leader.election.enable"}) {
    EXPECT_NE(find_topic_config(name), nullptr) << name;
  }
  EXPECT_EQ(find_topic_config("retention.hours"), nullptr);
  EXPECT_EQ(find_topic_config("log.retention.ms"), nullptr);  // a broker config
  EXPECT_EQ(find_topic_config(""), nullptr);
}

TEST(TopicConfigCatalog, EveryDefaultIsAValidValueAndEveryEntryIsDocumented) {
  for (const TopicConfigDefinition& definition : topic_config_catalog()) {
    if (definition.check == ConfigCheck::kThrottledReplicas) continue;  // "" means none
    EXPECT_EQ(check_topic_config_value(definition, definition.default_value), std::nullopt)
        << definition.name;
    EXPECT_FALSE(definition.documentation.empty()) << definition.name;
  }
}

TEST(TopicConfigCatalog, NumbersMustBeWholeAndInRange) {
  EXPECT_EQ(check("retention.ms", "-1"), std::nullopt);
  EXPECT_EQ(check("retention.ms", " 1000 "), std::nullopt);
  EXPECT_NE(check("retention.ms", "-2"), std::nullopt);
  EXPECT_NE(check("retention.ms", "1.5"), std::nullopt);
  EXPECT_NE(check("retention.ms", "abc"), std::nullopt);
  EXPECT_NE(check("retention.ms", ""), std::nullopt);
  EXPECT_NE(check("retention.ms", "99999999999999999999"), std::nullopt);
  EXPECT_EQ(check("retention.bytes", "-5"), std::nullopt);            // Kafka allows any long
  EXPECT_NE(check("max.message.bytes", "2147483648"), std::nullopt);  // an int
  EXPECT_NE(check("segment.bytes", "13"), std::nullopt);
  EXPECT_EQ(check("segment.bytes", "14"), std::nullopt);
  EXPECT_NE(check("compression.zstd.level", "23"), std::nullopt);
  EXPECT_EQ(check("compression.gzip.level", "-1"), std::nullopt);
  EXPECT_NE(check("compression.gzip.level", "0"), std::nullopt);
  const std::optional<std::string> message = check("min.insync.replicas", "0");
  ASSERT_TRUE(message);
  EXPECT_NE(message->find("min.insync.replicas"), std::string::npos);
  EXPECT_NE(message->find(">= 1"), std::string::npos);
}

TEST(TopicConfigCatalog, EnumsListsBooleansAndRatios) {
  EXPECT_EQ(check("cleanup.policy", "compact,delete"), std::nullopt);
  EXPECT_EQ(check("cleanup.policy", "compact, delete"), std::nullopt);
  EXPECT_NE(check("cleanup.policy", "compact,shred"), std::nullopt);
  EXPECT_NE(check("cleanup.policy", ""), std::nullopt);
  EXPECT_EQ(check("message.timestamp.type", "LogAppendTime"), std::nullopt);
  EXPECT_NE(check("message.timestamp.type", "logappendtime"), std::nullopt);
  EXPECT_EQ(check("compression.type", "zstd"), std::nullopt);
  EXPECT_NE(check("compression.type", "brotli"), std::nullopt);
  EXPECT_EQ(check("preallocate", "TRUE"), std::nullopt);
  EXPECT_NE(check("preallocate", "yes"), std::nullopt);
  EXPECT_EQ(check("min.cleanable.dirty.ratio", "0.25"), std::nullopt);
  EXPECT_NE(check("min.cleanable.dirty.ratio", "1.5"), std::nullopt);
  EXPECT_NE(check("min.cleanable.dirty.ratio", "nan"), std::nullopt);
  EXPECT_EQ(check("message.format.version", "2.8"), std::nullopt);
  EXPECT_EQ(check("message.format.version", "0.10.2-IV0"), std::nullopt);
  EXPECT_NE(check("message.format.version", "latest"), std::nullopt);
  EXPECT_EQ(check("leader.replication.throttled.replicas", "*"), std::nullopt);
  EXPECT_EQ(check("leader.replication.throttled.replicas", "0:1, 1:1"), std::nullopt);
  EXPECT_NE(check("leader.replication.throttled.replicas", "0-1"), std::nullopt);
}

TEST(TopicConfigCatalog, ResolvesTheValuesTheBrokerActsOn) {
  const TopicConfig defaults{.retention_ms = 1000, .retention_bytes = 2000};
  std::string error;
  const auto config = resolve_topic_config(defaults,
                                           {{"cleanup.policy", "compact"},
                                            {"retention.bytes", "4096"},
                                            {"max.message.bytes", "500"},
                                            {"message.timestamp.type", "LogAppendTime"},
                                            {"segment.bytes", "65536"},
                                            {"min.cleanable.dirty.ratio", "0.1"},
                                            {"preallocate", "true"},
                                            {"message.timestamp.before.max.ms", "60000"},
                                            {"message.timestamp.after.max.ms", "0"}},
                                           error);
  ASSERT_TRUE(config) << error;
  EXPECT_TRUE(config->cleanup_compact);
  EXPECT_FALSE(config->cleanup_delete);
  EXPECT_EQ(config->retention_ms, 1000);  // the broker's default stays
  EXPECT_EQ(config->retention_bytes, 4096);
  EXPECT_EQ(config->max_message_bytes, 500);
  EXPECT_EQ(config->message_timestamp_type, TimestampType::kLogAppendTime);
  EXPECT_EQ(config->segment_bytes, 65536);
  EXPECT_DOUBLE_EQ(config->min_cleanable_dirty_ratio, 0.1);
  EXPECT_EQ(config->message_timestamp_before_max_ms, 60000);
  EXPECT_EQ(config->message_timestamp_after_max_ms, 0);
}

TEST(TopicConfigCatalog, RefusesUnknownNamesBadValuesAndContradictions) {
  std::string error;
  EXPECT_FALSE(resolve_topic_config({}, {{"retention.hours", "1"}}, error));
  EXPECT_NE(error.find("retention.hours"), std::string::npos);
  EXPECT_FALSE(resolve_topic_config({}, {{"retention.ms", "soon"}}, error));
  EXPECT_NE(error.find("retention.ms"), std::string::npos);
  EXPECT_FALSE(resolve_topic_config(
      {}, {{"min.compaction.lag.ms", "10"}, {"max.compaction.lag.ms", "5"}}, error));
  EXPECT_NE(error.find("max.compaction.lag.ms"), std::string::npos);
  EXPECT_FALSE(resolve_topic_config({}, {{"remote.storage.enable", "true"}}, error));
  EXPECT_TRUE(resolve_topic_config({}, {{"remote.storage.enable", "false"}}, error));
}

TEST(TopicConfigCatalog, DefaultsComeFromTheBrokerWhereItHasAFlag) {
  const TopicConfig defaults{
      .retention_ms = 1000, .retention_bytes = 2000, .max_message_bytes = 3000};
  EXPECT_EQ(default_topic_config_value(*find_topic_config("retention.ms"), defaults), "1000");
  EXPECT_EQ(default_topic_config_value(*find_topic_config("retention.bytes"), defaults), "2000");
  EXPECT_EQ(default_topic_config_value(*find_topic_config("max.message.bytes"), defaults), "3000");
  EXPECT_EQ(default_topic_config_value(*find_topic_config("segment.ms"), defaults), "604800000");
}

TEST(TopicConfigCatalog, SplitsListsTrimmingEntries) {
  EXPECT_EQ(split_config_list(" compact , delete,,"),
            (std::vector<std::string>{"compact", "delete"}));
  EXPECT_TRUE(split_config_list("").empty());
}

}  // namespace
}  // namespace kgroups::broker
