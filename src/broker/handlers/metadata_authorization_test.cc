// SPDX-License-Identifier: Apache-2.0
//
// Kafka's authorization of Metadata and DescribeCluster, with the authorizer on: listing every
// topic hides those the client may not DESCRIBE, naming one answers TOPIC_AUTHORIZATION_FAILED,
// auto-creation needs CREATE on the cluster or the topic, and the authorized-operations bit sets
// hold exactly the operations allowed.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "broker/handlers/authorization_for_tests.h"
#include "protocol/messages/describe_cluster.h"
#include "protocol/messages/metadata.h"

namespace kgroups::broker {
namespace {

using protocol::ErrorCode;
using testing::AuthorizingBrokerTest;

constexpr std::int32_t bit(AclOperation operation) {
  return std::int32_t{1} << static_cast<int>(operation);
}

class MetadataAuthorization : public AuthorizingBrokerTest {
 protected:
  MetadataAuthorization() {
    for (const char* name : {"orders", "payments", "audit-log"}) {
      EXPECT_EQ(broker_.cluster().create_topic(name, 1), ErrorCode::kNone);
    }
  }

  protocol::MetadataResponse metadata(std::optional<std::vector<std::string_view>> names,
                                      std::int16_t version = 12, bool include_ops = false) {
    protocol::MetadataRequest request;
    request.topics = std::nullopt;  // every topic
    if (names) {
      request.topics.emplace();
      for (const std::string_view name : *names) request.topics->push_back({.name = name});
    }
    request.allow_auto_topic_creation = true;
    request.include_topic_authorized_operations = include_ops;
    request.include_cluster_authorized_operations = include_ops;
    return call<protocol::MetadataResponse>(request, version);
  }

  static std::vector<std::string> names_of(const protocol::MetadataResponse& response) {
    std::vector<std::string> names;
    for (const auto& topic : response.topics) names.push_back(topic.name.value_or("<null>"));
    return names;
  }
};

TEST_F(MetadataAuthorization, ListingEveryTopicHidesThoseNotDescribable) {
  allow_topic("orders", AclOperation::kDescribe);
  allow(AclResourceType::kTopic, "pay", AclOperation::kRead, AclPatternType::kPrefixed);
  const auto response = metadata(std::nullopt);
  EXPECT_EQ(names_of(response), (std::vector<std::string>{"orders", "payments"}));
  for (const auto& topic : response.topics) EXPECT_EQ(topic.error_code, ErrorCode::kNone);
}

TEST_F(MetadataAuthorization, ATopicNamedButNotDescribableIsRefusedWithoutItsPartitions) {
  allow_topic("orders", AclOperation::kDescribe);
  const auto response = metadata(std::vector<std::string_view>{"orders", "audit-log"});
  ASSERT_EQ(response.topics.size(), 2U);
  EXPECT_EQ(response.topics[0].error_code, ErrorCode::kNone);
  EXPECT_EQ(response.topics[1].name, "audit-log");
  EXPECT_EQ(response.topics[1].error_code, ErrorCode::kTopicAuthorizationFailed);
  EXPECT_TRUE(response.topics[1].partitions.empty());
  EXPECT_EQ(response.topics[1].topic_id, protocol::Uuid{});
}

TEST_F(MetadataAuthorization, ADenyHidesATopicAWildcardAllowCovers) {
  allow_topic("*", AclOperation::kDescribe);
  deny(AclResourceType::kTopic, "audit-log", AclOperation::kDescribe);
  EXPECT_EQ(names_of(metadata(std::nullopt)), (std::vector<std::string>{"orders", "payments"}));
}

TEST_F(MetadataAuthorization, ATopicAskedByIdButNotDescribableKeepsItsIdAndHidesItsName) {
  protocol::MetadataRequest request;
  request.topics.emplace();
  const protocol::Uuid id = broker_.cluster().find_topic("orders")->id;
  request.topics->push_back({.topic_id = id, .name = std::nullopt});
  const auto response = call<protocol::MetadataResponse>(request, 12);
  ASSERT_EQ(response.topics.size(), 1U);
  EXPECT_EQ(response.topics[0].error_code, ErrorCode::kTopicAuthorizationFailed);
  EXPECT_EQ(response.topics[0].name, std::nullopt);
  EXPECT_EQ(response.topics[0].topic_id, id);
}

TEST_F(MetadataAuthorization, AutoCreationNeedsCreateOnTheClusterOrTheTopic) {
  allow_topic("fresh", AclOperation::kDescribe);
  auto response = metadata(std::vector<std::string_view>{"fresh"});
  EXPECT_EQ(response.topics.at(0).error_code, ErrorCode::kTopicAuthorizationFailed);
  EXPECT_EQ(broker_.cluster().find_topic("fresh"), nullptr);

  allow_topic("fresh", AclOperation::kCreate);
  response = metadata(std::vector<std::string_view>{"fresh"});
  EXPECT_EQ(response.topics.at(0).error_code, ErrorCode::kNone);
  EXPECT_NE(broker_.cluster().find_topic("fresh"), nullptr);

  allow_topic("other", AclOperation::kDescribe);
  allow_cluster(AclOperation::kCreate);
  response = metadata(std::vector<std::string_view>{"other"});
  EXPECT_EQ(response.topics.at(0).error_code, ErrorCode::kNone);
}

TEST_F(MetadataAuthorization, TopicAuthorizedOperationsAreTheAllowedOnes) {
  allow_topic("orders", AclOperation::kRead);          // READ implies DESCRIBE
  allow_topic("orders", AclOperation::kAlterConfigs);  // implies DESCRIBE_CONFIGS
  const auto response = metadata(std::vector<std::string_view>{"orders"}, 10, true);
  EXPECT_EQ(response.topics.at(0).topic_authorized_operations,
            bit(AclOperation::kRead) | bit(AclOperation::kDescribe) |
                bit(AclOperation::kAlterConfigs) | bit(AclOperation::kDescribeConfigs));
}

TEST_F(MetadataAuthorization, ClusterAuthorizedOperationsNeedDescribeOnTheCluster) {
  allow_topic("orders", AclOperation::kDescribe);
  allow_cluster(AclOperation::kIdempotentWrite);
  EXPECT_EQ(
      metadata(std::vector<std::string_view>{"orders"}, 10, true).cluster_authorized_operations, 0);
  allow_cluster(AclOperation::kAlter);  // implies DESCRIBE
  EXPECT_EQ(
      metadata(std::vector<std::string_view>{"orders"}, 10, true).cluster_authorized_operations,
      bit(AclOperation::kIdempotentWrite) | bit(AclOperation::kAlter) |
          bit(AclOperation::kDescribe));
}

TEST_F(MetadataAuthorization, NotAskingForOperationsLeavesTheSchemaDefault) {
  allow_topic("orders", AclOperation::kDescribe);
  const auto response = metadata(std::vector<std::string_view>{"orders"}, 10, false);
  EXPECT_EQ(response.topics.at(0).topic_authorized_operations, INT32_MIN);
  EXPECT_EQ(response.cluster_authorized_operations, INT32_MIN);
}

TEST_F(MetadataAuthorization, DescribeClusterAnswersTheClusterOperationsAllowed) {
  protocol::DescribeClusterRequest request;
  request.include_cluster_authorized_operations = true;
  request.endpoint_type = 1;
  auto response = call<protocol::DescribeClusterResponse>(request, 1);
  EXPECT_EQ(response.error_code, ErrorCode::kNone);
  EXPECT_FALSE(response.brokers.empty());
  EXPECT_EQ(response.cluster_authorized_operations, 0);
  allow_cluster(AclOperation::kDescribe);
  response = call<protocol::DescribeClusterResponse>(request, 1);
  EXPECT_EQ(response.cluster_authorized_operations, bit(AclOperation::kDescribe));
}

TEST(MetadataWithoutAuthorizer, EveryOperationIsAuthorizedAsKafkaAnswersWithoutAnAuthorizer) {
  Broker broker(BrokerConfig{}, testing::kTestMachineBytes);
  asio::io_context io;
  ASSERT_EQ(broker.cluster().create_topic("orders", 1), ErrorCode::kNone);
  protocol::MetadataRequest request;
  request.topics.emplace();
  request.topics->push_back({.name = "orders"});
  request.include_topic_authorized_operations = true;
  const auto response = call_handler<protocol::MetadataResponse>(broker, io, request, 10);
  EXPECT_EQ(response.topics.at(0).topic_authorized_operations,
            bit(AclOperation::kRead) | bit(AclOperation::kWrite) | bit(AclOperation::kCreate) |
                bit(AclOperation::kDescribe) | bit(AclOperation::kDelete) |
                bit(AclOperation::kAlter) | bit(AclOperation::kDescribeConfigs) |
                bit(AclOperation::kAlterConfigs));
}

}  // namespace
}  // namespace kgroups::broker
