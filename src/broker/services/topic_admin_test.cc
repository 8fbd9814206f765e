// SPDX-License-Identifier: Apache-2.0
#include "broker/services/topic_admin.h"

#include <gtest/gtest.h>

#include <string>

namespace kgroups::broker {
namespace {

using protocol::CreateTopicsRequest;
using protocol::CreateTopicsResponse;
using protocol::ErrorCode;

constexpr std::int64_t kNoRequestCap = 1'000'000;

CreateTopicsRequest::Topic new_topic(std::string_view name, std::int32_t partitions = -1) {
  CreateTopicsRequest::Topic topic;
  topic.name = name;
  topic.num_partitions = partitions;
  return topic;
}

const CreateTopicsResponse::Config* config_named(const CreateTopicsResponse::Topic& topic,
                                                 std::string_view name) {
  for (const auto& config : topic.configs.value()) {
    if (config.name == name) return &config;
  }
  return nullptr;
}

TEST(TopicAdmin, CreatesATopicWithTheDefaultPartitionsAndEchoesItsConfigs) {
  Cluster cluster(3, false);
  CreateTopicsRequest request;
  request.topics.push_back(new_topic("orders"));
  request.topics.back().configs.push_back({"retention.ms", "60000"});

  const CreateTopicsResponse response = create_topics(cluster, kNoRequestCap, request);

  ASSERT_EQ(response.topics.size(), 1U);
  const auto& created = response.topics[0];
  EXPECT_EQ(created.error_code, ErrorCode::kNone);
  EXPECT_EQ(created.num_partitions, 3);
  EXPECT_EQ(created.replication_factor, 1);
  const StoredTopic* stored = cluster.find_topic("orders");
  ASSERT_NE(stored, nullptr);
  EXPECT_EQ(stored->partitions.size(), 3U);
  EXPECT_EQ(created.topic_id, stored->id);
  const auto* retention = config_named(created, "retention.ms");
  ASSERT_NE(retention, nullptr);
  EXPECT_EQ(retention->value, "60000");
  EXPECT_EQ(retention->config_source, 1);  // given by the request
}

TEST(TopicAdmin, ValidateOnlyChecksWithoutCreating) {
  Cluster cluster(1, false);
  CreateTopicsRequest request;
  request.validate_only = true;
  request.topics.push_back(new_topic("orders", 2));

  const CreateTopicsResponse response = create_topics(cluster, kNoRequestCap, request);

  EXPECT_EQ(response.topics.at(0).error_code, ErrorCode::kNone);
  EXPECT_EQ(response.topics.at(0).num_partitions, 2);
  EXPECT_EQ(response.topics.at(0).topic_id, protocol::Uuid{});
  EXPECT_EQ(cluster.find_topic("orders"), nullptr);
}

TEST(TopicAdmin, ATopicNamedTwiceIsRefusedBothTimesAndNotCreated) {
  Cluster cluster(1, false);
  CreateTopicsRequest request;
  request.topics = {new_topic("orders"), new_topic("orders")};

  const CreateTopicsResponse response = create_topics(cluster, kNoRequestCap, request);

  for (const auto& topic : response.topics) {
    EXPECT_EQ(topic.error_code, ErrorCode::kInvalidRequest);
    EXPECT_EQ(topic.error_message, "Topic 'orders' appears more than once in the request.");
  }
  EXPECT_EQ(cluster.find_topic("orders"), nullptr);
}

TEST(TopicAdmin, RefusesAnExistingTopicAnIllegalNameAndAReplicationFactorOverOne) {
  Cluster cluster(1, false);
  ASSERT_EQ(cluster.create_topic("orders", 1), ErrorCode::kNone);
  CreateTopicsRequest request;
  request.topics = {new_topic("orders"), new_topic("bad name"), new_topic("replicated")};
  request.topics[2].replication_factor = 3;

  const CreateTopicsResponse response = create_topics(cluster, kNoRequestCap, request);

  EXPECT_EQ(response.topics.at(0).error_code, ErrorCode::kTopicAlreadyExists);
  EXPECT_EQ(response.topics.at(1).error_code, ErrorCode::kInvalidTopicException);
  EXPECT_EQ(response.topics.at(2).error_code, ErrorCode::kInvalidReplicationFactor);
  EXPECT_EQ(response.topics.at(2).error_message,
            "Replication factor: 3 larger than available brokers: 1; start kgroupsd with "
            "--brokers 3 or more.");
  EXPECT_EQ(cluster.find_topic("replicated"), nullptr);
}

TEST(TopicAdmin, RefusesUnknownNullAndRepeatedConfigsSayingWhich) {
  Cluster cluster(1, false);
  CreateTopicsRequest request;
  request.topics = {new_topic("a"), new_topic("b"), new_topic("c")};
  request.topics[0].configs.push_back({"retention.msec", "1"});
  request.topics[1].configs.push_back({"retention.ms", std::nullopt});
  request.topics[2].configs = {{"retention.ms", "1"}, {"retention.ms", "2"}};

  const CreateTopicsResponse response = create_topics(cluster, kNoRequestCap, request);

  for (const auto& topic : response.topics) {
    EXPECT_EQ(topic.error_code, ErrorCode::kInvalidConfig) << topic.name;
    EXPECT_EQ(cluster.find_topic(topic.name), nullptr);
  }
  EXPECT_NE(response.topics[0].error_message->find("retention.msec"), std::string::npos);
  EXPECT_EQ(response.topics[1].error_message,
            "Null value not supported for topic config 'retention.ms'.");
  EXPECT_EQ(response.topics[2].error_message,
            "Topic config 'retention.ms' is given more than once.");
}

TEST(TopicAdmin, ThePartitionsOfOneRequestAreCountedInOrderAgainstItsCap) {
  Cluster cluster(1, false);
  CreateTopicsRequest request;
  request.topics = {new_topic("a", 3), new_topic("b", 2), new_topic("c", 1)};

  const CreateTopicsResponse response = create_topics(cluster, 4, request);

  EXPECT_EQ(response.topics.at(0).error_code, ErrorCode::kNone);
  EXPECT_EQ(response.topics.at(1).error_code, ErrorCode::kPolicyViolation);  // 3 + 2 > 4
  EXPECT_EQ(response.topics.at(2).error_code, ErrorCode::kNone);             // 3 + 1 <= 4
  EXPECT_EQ(cluster.find_topic("b"), nullptr);
}

TEST(TopicAdmin, OnlyTheFirstRefusalsCarryAMessage) {
  Cluster cluster(1, false);
  CreateTopicsRequest request;
  std::vector<std::string> names;
  for (std::size_t i = 0; i < kMaxErrorMessages + 3; ++i)
    names.push_back("bad name " + std::to_string(i));
  for (const std::string& name : names) request.topics.push_back(new_topic(name));

  const CreateTopicsResponse response = create_topics(cluster, kNoRequestCap, request);

  for (std::size_t i = 0; i < response.topics.size(); ++i) {
    EXPECT_EQ(response.topics[i].error_code, ErrorCode::kInvalidTopicException);
    EXPECT_EQ(response.topics[i].error_message.has_value(), i < kMaxErrorMessages) << i;
  }
}

}  // namespace
}  // namespace kgroups::broker
