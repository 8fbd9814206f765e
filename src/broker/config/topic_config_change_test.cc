// SPDX-License-Identifier: Apache-2.0
#include "broker/config/topic_config_change.h"

#include <gtest/gtest.h>

namespace kgroups::broker {
namespace {

using protocol::ErrorCode;

constexpr std::int8_t kSet = 0;
constexpr std::int8_t kDelete = 1;
constexpr std::int8_t kAppend = 2;
constexpr std::int8_t kSubtract = 3;

const TopicConfigValues& values_of(const ConfigChangeResult& result) {
  static const TopicConfigValues kNone;
  const auto* values = std::get_if<TopicConfigValues>(&result);
  EXPECT_NE(values, nullptr) << std::get<ConfigChangeError>(result).message;
  return values != nullptr ? *values : kNone;
}

ErrorCode error_of(const ConfigChangeResult& result) {
  const auto* error = std::get_if<ConfigChangeError>(&result);
  return error != nullptr ? error->code : ErrorCode::kNone;
}

TEST(ReplaceTopicConfigs, TheChangesBecomeTheWholeSet) {
  const ConfigChange changes[] = {{"retention.ms", kSet, "1000"}, {"segment.ms", kSet, "5"}};
  EXPECT_EQ(values_of(replace_topic_configs(changes)),
            (TopicConfigValues{{"retention.ms", "1000"}, {"segment.ms", "5"}}));
  EXPECT_TRUE(values_of(replace_topic_configs({})).empty());
}

TEST(ReplaceTopicConfigs, RefusesRepeatsNullsAndUnknownNames) {
  const ConfigChange repeated[] = {{"retention.ms", kSet, "1"}, {"retention.ms", kSet, "2"}};
  EXPECT_EQ(error_of(replace_topic_configs(repeated)), ErrorCode::kInvalidRequest);
  const ConfigChange null_value[] = {{"retention.ms", kSet, std::nullopt}};
  EXPECT_EQ(error_of(replace_topic_configs(null_value)), ErrorCode::kInvalidRequest);
  const ConfigChange unknown[] = {{"retention.hours", kSet, "1"}};
  EXPECT_EQ(error_of(replace_topic_configs(unknown)), ErrorCode::kInvalidConfig);
}

TEST(ChangeTopicConfigs, SetsAndDeletesSingleConfigsKeepingTheRest) {
  const TopicConfigValues current{{"retention.ms", "1000"}, {"segment.ms", "5"}};
  const ConfigChange changes[] = {{"retention.ms", kDelete, std::nullopt},
                                  {"max.message.bytes", kSet, "100"}};
  EXPECT_EQ(values_of(change_topic_configs(current, changes)),
            (TopicConfigValues{{"max.message.bytes", "100"}, {"segment.ms", "5"}}));
}

TEST(ChangeTopicConfigs, AppendsToAndSubtractsFromListsStartingFromTheDefault) {
  const ConfigChange append[] = {{"cleanup.policy", kAppend, "compact"}};
  EXPECT_EQ(values_of(change_topic_configs({}, append)),
            (TopicConfigValues{{"cleanup.policy", "delete,compact"}}));
  const ConfigChange append_present[] = {{"cleanup.policy", kAppend, "delete"}};
  EXPECT_EQ(values_of(change_topic_configs({}, append_present)),
            (TopicConfigValues{{"cleanup.policy", "delete"}}));
  const ConfigChange subtract[] = {{"cleanup.policy", kSubtract, "delete"}};
  EXPECT_EQ(values_of(change_topic_configs({{"cleanup.policy", "compact,delete"}}, subtract)),
            (TopicConfigValues{{"cleanup.policy", "compact"}}));
}

TEST(ChangeTopicConfigs, RefusesListOperationsOnOtherConfigsAndBadRequests) {
  const ConfigChange append_number[] = {{"retention.ms", kAppend, "5"}};
  EXPECT_EQ(error_of(change_topic_configs({}, append_number)), ErrorCode::kInvalidConfig);
  const ConfigChange subtract_string[] = {{"compression.type", kSubtract, "gzip"}};
  EXPECT_EQ(error_of(change_topic_configs({}, subtract_string)), ErrorCode::kInvalidConfig);
  const ConfigChange bad_operation[] = {{"retention.ms", 4, "5"}};
  EXPECT_EQ(error_of(change_topic_configs({}, bad_operation)), ErrorCode::kInvalidRequest);
  const ConfigChange null_set[] = {{"retention.ms", kSet, std::nullopt}};
  EXPECT_EQ(error_of(change_topic_configs({}, null_set)), ErrorCode::kInvalidRequest);
  const ConfigChange repeated[] = {{"retention.ms", kSet, "1"}, {"retention.ms", kDelete, {}}};
  EXPECT_EQ(error_of(change_topic_configs({}, repeated)), ErrorCode::kInvalidRequest);
  const ConfigChange unknown_delete[] = {{"retention.hours", kDelete, std::nullopt}};
  EXPECT_EQ(error_of(change_topic_configs({}, unknown_delete)), ErrorCode::kInvalidConfig);
}

}  // namespace
}  // namespace kgroups::broker
