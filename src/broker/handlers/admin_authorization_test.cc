// SPDX-License-Identifier: Apache-2.0
//
// Kafka's authorization of the admin APIs, with the authorizer on: CreateTopics (CREATE on the
// cluster or each topic; configs hidden without DESCRIBE_CONFIGS), DeleteTopics (DELETE; by id
// the name only when describable), CreatePartitions (ALTER), DescribeConfigs and the two
// AlterConfigs (DESCRIBE_CONFIGS / ALTER_CONFIGS on the topic, the cluster for a broker, the
// group for a group), and the cluster operations of ElectLeaders, AlterPartitionReassignments,
// ListPartitionReassignments and DescribeLogDirs.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "broker/handlers/authorization_for_tests.h"
#include "protocol/messages/alter_configs.h"
#include "protocol/messages/alter_partition_reassignments.h"
#include "protocol/messages/create_partitions.h"
#include "protocol/messages/create_topics.h"
#include "protocol/messages/delete_topics.h"
#include "protocol/messages/describe_configs.h"
#include "protocol/messages/describe_log_dirs.h"
#include "protocol/messages/elect_leaders.h"
#include "protocol/messages/incremental_alter_configs.h"
#include "protocol/messages/list_partition_reassignments.h"

namespace kgroups::broker {
namespace {

using protocol::ErrorCode;
using testing::AuthorizingBrokerTest;

constexpr std::int8_t kTopicResource = 2;
constexpr std::int8_t kBrokerResource = 4;
constexpr std::int8_t kGroupResource = 32;

class AdminAuthorization : public AuthorizingBrokerTest {
 protected:
  AdminAuthorization() { EXPECT_EQ(broker_.cluster().create_topic("orders", 1), ErrorCode::kNone); }

  protocol::CreateTopicsResponse create(const std::vector<std::string_view>& names) {
    protocol::CreateTopicsRequest request;
    for (const std::string_view name : names) {
      request.topics.push_back({.name = name, .num_partitions = 2});
    }
    return call<protocol::CreateTopicsResponse>(request, 7);
  }

  static const protocol::CreateTopicsResponse::Topic& topic(
      const protocol::CreateTopicsResponse& response, std::string_view name) {
    for (const auto& answered : response.topics) {
      if (answered.name == name) return answered;
    }
    ADD_FAILURE() << "no answer for " << name;
    return response.topics.at(0);
  }
};

TEST_F(AdminAuthorization, CreateTopicsNeedsCreateOnTheTopicOrTheCluster) {
  allow_topic("a", AclOperation::kCreate);
  auto response = create({"a", "b"});
  EXPECT_EQ(topic(response, "a").error_code, ErrorCode::kNone);
  EXPECT_EQ(topic(response, "b").error_code, ErrorCode::kTopicAuthorizationFailed);
  EXPECT_EQ(topic(response, "b").error_message, "Authorization failed.");
  EXPECT_EQ(broker_.cluster().find_topic("b"), nullptr);
  allow_cluster(AclOperation::kCreate);
  response = create({"b"});
  EXPECT_EQ(topic(response, "b").error_code, ErrorCode::kNone);
}

TEST_F(AdminAuthorization, CreatedTopicsHideTheirConfigsWithoutDescribeConfigs) {
  allow_cluster(AclOperation::kCreate);
  allow_topic("seen", AclOperation::kDescribeConfigs);
  const auto response = create({"seen", "hidden"});
  const auto& seen = topic(response, "seen");
  EXPECT_EQ(seen.topic_config_error_code, 0);
  EXPECT_EQ(seen.num_partitions, 2);
  EXPECT_FALSE(seen.configs.value_or(decltype(seen.configs)::value_type{}).empty());
  const auto& hidden = topic(response, "hidden");
  EXPECT_EQ(hidden.error_code, ErrorCode::kNone);
  EXPECT_EQ(hidden.topic_config_error_code,
            static_cast<std::int16_t>(ErrorCode::kTopicAuthorizationFailed));
  EXPECT_EQ(hidden.num_partitions, -1);
  EXPECT_EQ(hidden.replication_factor, -1);
  EXPECT_TRUE(hidden.configs.value_or(decltype(hidden.configs)::value_type{}).empty());
}

TEST_F(AdminAuthorization, DeleteTopicsNeedsDeleteAndHidesNamesNotDescribable) {
  protocol::DeleteTopicsRequest request;
  const protocol::Uuid id = broker_.cluster().find_topic("orders")->id;
  request.topics = {{.name = std::nullopt, .topic_id = id}};
  auto response = call<protocol::DeleteTopicsResponse>(request, 6);
  EXPECT_EQ(response.responses.at(0).error_code, ErrorCode::kTopicAuthorizationFailed);
  EXPECT_EQ(response.responses.at(0).name, std::nullopt);
  allow_topic("orders", AclOperation::kDescribe);
  response = call<protocol::DeleteTopicsResponse>(request, 6);
  EXPECT_EQ(response.responses.at(0).error_code, ErrorCode::kTopicAuthorizationFailed);
  EXPECT_EQ(response.responses.at(0).name, "orders");
  EXPECT_NE(broker_.cluster().find_topic("orders"), nullptr);
  allow_topic("orders", AclOperation::kDelete);
  response = call<protocol::DeleteTopicsResponse>(request, 6);
  EXPECT_EQ(response.responses.at(0).error_code, ErrorCode::kNone);
  EXPECT_EQ(broker_.cluster().find_topic("orders"), nullptr);
}

TEST_F(AdminAuthorization, DeletingAnUnknownTopicByNameNeedsDescribeToLearnItIsUnknown) {
  protocol::DeleteTopicsRequest request;
  request.topic_names = {"ghost"};
  EXPECT_EQ(call<protocol::DeleteTopicsResponse>(request, 5).responses.at(0).error_code,
            ErrorCode::kTopicAuthorizationFailed);
  allow_topic("ghost", AclOperation::kDescribe);
  EXPECT_EQ(call<protocol::DeleteTopicsResponse>(request, 5).responses.at(0).error_code,
            ErrorCode::kUnknownTopicOrPartition);
}

TEST_F(AdminAuthorization, CreatePartitionsNeedsAlterOnTheTopic) {
  protocol::CreatePartitionsRequest request;
  request.topics = {{.name = "orders", .count = 3, .assignments = std::nullopt}};
  EXPECT_EQ(call<protocol::CreatePartitionsResponse>(request, 3).results.at(0).error_code,
            ErrorCode::kTopicAuthorizationFailed);
  allow_cluster(AclOperation::kAlter);  // Kafka asks only the topic
  EXPECT_EQ(call<protocol::CreatePartitionsResponse>(request, 3).results.at(0).error_code,
            ErrorCode::kTopicAuthorizationFailed);
  allow_topic("orders", AclOperation::kAlter);
  EXPECT_EQ(call<protocol::CreatePartitionsResponse>(request, 3).results.at(0).error_code,
            ErrorCode::kNone);
  EXPECT_EQ(broker_.cluster().find_topic("orders")->partitions.size(), 3U);
}

TEST_F(AdminAuthorization, DescribeConfigsNeedsDescribeConfigsOnEachResource) {
  allow_topic("orders", AclOperation::kAlterConfigs);  // implies DESCRIBE_CONFIGS
  protocol::DescribeConfigsRequest request;
  request.resources = {{.resource_type = kTopicResource, .resource_name = "orders"},
                       {.resource_type = kBrokerResource, .resource_name = "0"},
                       {.resource_type = kGroupResource, .resource_name = "g"}};
  const auto response = call<protocol::DescribeConfigsResponse>(request, 4);
  ASSERT_EQ(response.results.size(), 3U);
  EXPECT_EQ(response.results[0].error_code, ErrorCode::kNone);
  EXPECT_FALSE(response.results[0].configs.empty());
  EXPECT_EQ(response.results[1].error_code, ErrorCode::kClusterAuthorizationFailed);
  EXPECT_EQ(response.results[1].error_message, "Cluster authorization failed.");
  EXPECT_TRUE(response.results[1].configs.empty());
  EXPECT_EQ(response.results[2].error_code, ErrorCode::kGroupAuthorizationFailed);
}

TEST_F(AdminAuthorization, AlterConfigsNeedAlterConfigsOnEachResource) {
  allow_topic("orders", AclOperation::kDescribeConfigs);  // not enough
  protocol::IncrementalAlterConfigsRequest request;
  request.resources = {
      {.resource_type = kTopicResource,
       .resource_name = "orders",
       .configs = {{.name = "retention.ms", .config_operation = 0, .value = "1000"}}},
      {.resource_type = kBrokerResource,
       .resource_name = "",
       .configs = {{.name = "log.retention.ms", .config_operation = 0, .value = "1000"}}}};
  auto response = call<protocol::IncrementalAlterConfigsResponse>(request, 1);
  EXPECT_EQ(response.responses.at(0).error_code, ErrorCode::kTopicAuthorizationFailed);
  EXPECT_EQ(response.responses.at(1).error_code, ErrorCode::kClusterAuthorizationFailed);
  allow_topic("orders", AclOperation::kAlterConfigs);
  allow_cluster(AclOperation::kAlterConfigs);
  response = call<protocol::IncrementalAlterConfigsResponse>(request, 1);
  EXPECT_EQ(response.responses.at(0).error_code, ErrorCode::kNone);
  EXPECT_EQ(response.responses.at(1).error_code, ErrorCode::kNone);

  protocol::AlterConfigsRequest replace;
  replace.resources = {{.resource_type = kTopicResource,
                        .resource_name = "orders",
                        .configs = {{.name = "retention.ms", .value = "2000"}}}};
  deny(AclResourceType::kTopic, "orders", AclOperation::kAlterConfigs);
  EXPECT_EQ(call<protocol::AlterConfigsResponse>(replace, 1).responses.at(0).error_code,
            ErrorCode::kTopicAuthorizationFailed);
}

TEST_F(AdminAuthorization, ClusterOperationsNeedTheirOperationOnTheCluster) {
  protocol::ElectLeadersRequest elect;
  elect.topic_partitions = std::vector<protocol::ElectLeadersRequest::TopicPartitions>{
      {.topic = "orders", .partitions = {0}}};
  auto elected = call<protocol::ElectLeadersResponse>(elect, 2);
  EXPECT_EQ(elected.error_code, ErrorCode::kClusterAuthorizationFailed);
  EXPECT_EQ(elected.replica_election_results.at(0).partition_result.at(0).error_code,
            ErrorCode::kClusterAuthorizationFailed);

  protocol::AlterPartitionReassignmentsRequest move;
  move.topics = {
      {.name = "orders", .partitions = {{.partition_index = 0, .replicas = std::nullopt}}}};
  auto moved = call<protocol::AlterPartitionReassignmentsResponse>(move, 0);
  EXPECT_EQ(moved.error_code, ErrorCode::kClusterAuthorizationFailed);
  EXPECT_EQ(moved.responses.at(0).partitions.at(0).error_code,
            ErrorCode::kClusterAuthorizationFailed);

  auto listed = call<protocol::ListPartitionReassignmentsResponse>(
      protocol::ListPartitionReassignmentsRequest{}, 0);
  EXPECT_EQ(listed.error_code, ErrorCode::kClusterAuthorizationFailed);

  auto dirs = call<protocol::DescribeLogDirsResponse>(protocol::DescribeLogDirsRequest{}, 4);
  EXPECT_EQ(dirs.error_code, ErrorCode::kClusterAuthorizationFailed);
  EXPECT_TRUE(dirs.results.empty());

  allow_cluster(AclOperation::kDescribe);  // not ALTER
  EXPECT_EQ(call<protocol::ElectLeadersResponse>(elect, 2).error_code,
            ErrorCode::kClusterAuthorizationFailed);
  EXPECT_EQ(call<protocol::ListPartitionReassignmentsResponse>(
                protocol::ListPartitionReassignmentsRequest{}, 0)
                .error_code,
            ErrorCode::kNone);
  dirs = call<protocol::DescribeLogDirsResponse>(protocol::DescribeLogDirsRequest{}, 4);
  EXPECT_EQ(dirs.error_code, ErrorCode::kNone);
  EXPECT_EQ(dirs.results.size(), 1U);

  allow_cluster(AclOperation::kAlter);
  EXPECT_NE(call<protocol::ElectLeadersResponse>(elect, 2).error_code,
            ErrorCode::kClusterAuthorizationFailed);
  EXPECT_NE(call<protocol::AlterPartitionReassignmentsResponse>(move, 0).error_code,
            ErrorCode::kClusterAuthorizationFailed);
}

}  // namespace
}  // namespace kgroups::broker
