// SPDX-License-Identifier: Apache-2.0
//
// Kafka's authorization of the group APIs, with the authorizer on: READ on the group for
// JoinGroup, Heartbeat, OffsetCommit (then READ per topic); DESCRIBE for DescribeGroups,
// OffsetFetch (topics without DESCRIBE refused by name, hidden when all are asked for),
// FindCoordinator and ListGroups (every group with DESCRIBE on the cluster); DELETE for
// DeleteGroups and OffsetDelete (then READ per topic).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "broker/handlers/authorization_for_tests.h"
#include "protocol/messages/consumer_group_heartbeat.h"
#include "protocol/messages/delete_groups.h"
#include "protocol/messages/describe_groups.h"
#include "protocol/messages/find_coordinator.h"
#include "protocol/messages/heartbeat.h"
#include "protocol/messages/join_group.h"
#include "protocol/messages/list_groups.h"
#include "protocol/messages/offset_commit.h"
#include "protocol/messages/offset_delete.h"
#include "protocol/messages/offset_fetch.h"
#include "protocol/messages/share_fetch.h"

namespace kgroups::broker {
namespace {

using protocol::ErrorCode;
using testing::AuthorizingBrokerTest;

class GroupAuthorization : public AuthorizingBrokerTest {
 protected:
  GroupAuthorization() {
    for (const char* name : {"orders", "payments"}) {
      EXPECT_EQ(broker_.cluster().create_topic(name, 1), ErrorCode::kNone);
    }
  }

  // Commits offset 5 of partition 0 of each topic for `group` (no members: generation -1).
  protocol::OffsetCommitResponse commit(std::string_view group,
                                        const std::vector<std::string_view>& topics) {
    protocol::OffsetCommitRequest request;
    request.group_id = group;
    request.generation_id = -1;
    for (const std::string_view topic : topics) {
      request.topics.push_back(
          {.name = topic, .partitions = {{.partition_index = 0, .committed_offset = 5}}});
    }
    return call<protocol::OffsetCommitResponse>(request, 8);
  }

  static ErrorCode error_of(const protocol::OffsetCommitResponse& response,
                            std::string_view topic) {
    for (const auto& answered : response.topics) {
      if (answered.name == topic) return answered.partitions.at(0).error_code;
    }
    ADD_FAILURE() << "no answer for " << topic;
    return ErrorCode::kUnknownServerError;
  }

  // Lets alice commit for `group` on both topics, commits, then takes the rights back by
  // using a fresh principal for what follows (bob).
  void seed_group(std::string_view group) {
    acl(AclPermissionType::kAllow, AclResourceType::kGroup, std::string(group), AclOperation::kRead,
        AclPatternType::kLiteral, "User:seeder");
    acl(AclPermissionType::kAllow, AclResourceType::kTopic, "*", AclOperation::kRead,
        AclPatternType::kLiteral, "User:seeder");
    ConnectionAuth seeder(false, "127.0.0.1", "User:seeder");
    protocol::OffsetCommitRequest request;
    request.group_id = group;
    request.generation_id = -1;
    for (const std::string_view topic : {"orders", "payments"}) {
      request.topics.push_back(
          {.name = topic, .partitions = {{.partition_index = 0, .committed_offset = 5}}});
    }
    const auto response =
        call_handler<protocol::OffsetCommitResponse>(broker_, io_, request, 8, 0, &seeder);
    for (const auto& topic : response.topics) {
      ASSERT_EQ(topic.partitions.at(0).error_code, ErrorCode::kNone);
    }
  }
};

TEST_F(GroupAuthorization, JoinGroupNeedsReadOnTheGroup) {
  protocol::JoinGroupRequest request;
  request.group_id = "g";
  request.session_timeout_ms = 10000;
  request.rebalance_timeout_ms = 10000;
  request.member_id = "";
  request.protocol_type = "consumer";
  request.protocols = {{.name = "range", .metadata = {}}};
  auto response = call<protocol::JoinGroupResponse>(request, 5);
  EXPECT_EQ(response.error_code, ErrorCode::kGroupAuthorizationFailed);
  EXPECT_EQ(response.member_id, "");
  allow_group("g", AclOperation::kDescribe);  // DESCRIBE is not enough
  EXPECT_EQ(call<protocol::JoinGroupResponse>(request, 5).error_code,
            ErrorCode::kGroupAuthorizationFailed);
  allow_group("g", AclOperation::kRead);
  response = call<protocol::JoinGroupResponse>(request, 5);
  EXPECT_EQ(response.error_code, ErrorCode::kMemberIdRequired);
  EXPECT_FALSE(response.member_id.empty());
}

TEST_F(GroupAuthorization, HeartbeatNeedsReadOnTheGroupBeforeTheCoordinatorLooks) {
  protocol::HeartbeatRequest request;
  request.group_id = "g";
  request.generation_id = 1;
  request.member_id = "nobody";
  EXPECT_EQ(call<protocol::HeartbeatResponse>(request, 4).error_code,
            ErrorCode::kGroupAuthorizationFailed);
  allow(AclResourceType::kGroup, "g", AclOperation::kRead, AclPatternType::kPrefixed);
  EXPECT_NE(call<protocol::HeartbeatResponse>(request, 4).error_code,
            ErrorCode::kGroupAuthorizationFailed);
}

TEST_F(GroupAuthorization, OffsetCommitNeedsReadOnTheGroupThenOnEachTopic) {
  allow_topic("orders", AclOperation::kRead);
  auto response = commit("g", {"orders", "payments"});
  EXPECT_EQ(error_of(response, "orders"), ErrorCode::kGroupAuthorizationFailed);
  EXPECT_EQ(error_of(response, "payments"), ErrorCode::kGroupAuthorizationFailed);

  allow_group("g", AclOperation::kRead);
  response = commit("g", {"orders", "payments"});
  EXPECT_EQ(error_of(response, "orders"), ErrorCode::kNone);
  EXPECT_EQ(error_of(response, "payments"), ErrorCode::kTopicAuthorizationFailed);
}

TEST_F(GroupAuthorization, OffsetFetchRefusesNamedTopicsAndHidesOthersWhenAllAreAsked) {
  seed_group("g");
  allow_topic("orders", AclOperation::kDescribe);
  protocol::OffsetFetchRequest request;
  request.groups = {{.group_id = "g",
                     .topics = std::vector<protocol::OffsetFetchRequest::GroupTopic>{
                         {.name = "orders", .partition_indexes = {0}},
                         {.name = "payments", .partition_indexes = {0}}}}};
  auto response = call<protocol::OffsetFetchResponse>(request, 8);
  EXPECT_EQ(response.groups.at(0).error_code, ErrorCode::kGroupAuthorizationFailed);

  allow_group("g", AclOperation::kDescribe);
  response = call<protocol::OffsetFetchResponse>(request, 8);
  ASSERT_EQ(response.groups.at(0).error_code, ErrorCode::kNone);
  ASSERT_EQ(response.groups.at(0).topics.size(), 2U);
  for (const auto& topic : response.groups.at(0).topics) {
    const auto& partition = topic.partitions.at(0);
    if (topic.name == "orders") {
      EXPECT_EQ(partition.error_code, ErrorCode::kNone);
      EXPECT_EQ(partition.committed_offset, 5);
    } else {
      EXPECT_EQ(partition.error_code, ErrorCode::kTopicAuthorizationFailed);
      EXPECT_EQ(partition.committed_offset, -1);
    }
  }

  request.groups[0].topics = std::nullopt;  // every committed partition
  response = call<protocol::OffsetFetchResponse>(request, 8);
  ASSERT_EQ(response.groups.at(0).topics.size(), 1U);
  EXPECT_EQ(response.groups.at(0).topics[0].name, "orders");
}

TEST_F(GroupAuthorization, OffsetFetchV1CarriesTheGroupErrorOnEachPartition) {
  protocol::OffsetFetchRequest request;
  request.group_id = "g";
  request.topics = std::vector<protocol::OffsetFetchRequest::Topic>{
      {.name = "orders", .partition_indexes = {0}}};
  const auto response = call<protocol::OffsetFetchResponse>(request, 1);
  EXPECT_EQ(response.topics.at(0).partitions.at(0).error_code,
            ErrorCode::kGroupAuthorizationFailed);
}

TEST_F(GroupAuthorization, DescribeGroupsNeedsDescribeAndAnswersTheGroupOperations) {
  seed_group("g");
  protocol::DescribeGroupsRequest request;
  request.groups = {"g"};
  request.include_authorized_operations = true;
  auto response = call<protocol::DescribeGroupsResponse>(request, 5);
  EXPECT_EQ(response.groups.at(0).error_code, ErrorCode::kGroupAuthorizationFailed);
  allow_group("g", AclOperation::kDelete);  // implies DESCRIBE
  response = call<protocol::DescribeGroupsResponse>(request, 5);
  EXPECT_EQ(response.groups.at(0).error_code, ErrorCode::kNone);
  EXPECT_EQ(response.groups.at(0).authorized_operations,
            (1 << static_cast<int>(AclOperation::kDescribe)) |
                (1 << static_cast<int>(AclOperation::kDelete)));
}

TEST_F(GroupAuthorization, ListGroupsShowsOnlyDescribableGroupsWithoutClusterDescribe) {
  seed_group("g1");
  seed_group("g2");
  const auto listed = [&] {
    std::vector<std::string> ids;
    for (const auto& group :
         call<protocol::ListGroupsResponse>(protocol::ListGroupsRequest{}, 4).groups) {
      ids.push_back(group.group_id);
    }
    std::sort(ids.begin(), ids.end());
    return ids;
  };
  EXPECT_TRUE(listed().empty());
  allow_group("g1", AclOperation::kDescribe);
  EXPECT_EQ(listed(), std::vector<std::string>{"g1"});
  allow_cluster(AclOperation::kDescribe);
  EXPECT_EQ(listed(), (std::vector<std::string>{"g1", "g2"}));
}

TEST_F(GroupAuthorization, DeleteGroupsNeedsDeleteOnEachGroup) {
  seed_group("g1");
  seed_group("g2");
  allow_group("g1", AclOperation::kDelete);
  protocol::DeleteGroupsRequest request;
  request.groups_names = {"g1", "g2"};
  const auto response = call<protocol::DeleteGroupsResponse>(request, 2);
  ASSERT_EQ(response.results.size(), 2U);
  EXPECT_EQ(response.results[0].error_code, ErrorCode::kNone);
  EXPECT_EQ(response.results[1].error_code, ErrorCode::kGroupAuthorizationFailed);
}

TEST_F(GroupAuthorization, OffsetDeleteNeedsDeleteOnTheGroupThenReadOnEachTopic) {
  seed_group("g");
  protocol::OffsetDeleteRequest request;
  request.group_id = "g";
  request.topics = {{.name = "orders", .partitions = {{.partition_index = 0}}},
                    {.name = "payments", .partitions = {{.partition_index = 0}}}};
  auto response = call<protocol::OffsetDeleteResponse>(request, 0);
  EXPECT_EQ(response.error_code, ErrorCode::kGroupAuthorizationFailed);
  EXPECT_TRUE(response.topics.empty());
  allow_group("g", AclOperation::kDelete);
  allow_topic("orders", AclOperation::kRead);
  response = call<protocol::OffsetDeleteResponse>(request, 0);
  ASSERT_EQ(response.error_code, ErrorCode::kNone);
  ASSERT_EQ(response.topics.size(), 2U);
  EXPECT_EQ(response.topics[0].partitions.at(0).error_code, ErrorCode::kNone);
  EXPECT_EQ(response.topics[1].partitions.at(0).error_code, ErrorCode::kTopicAuthorizationFailed);
}

TEST_F(GroupAuthorization, FindCoordinatorNeedsDescribeOnTheGroupOrTransactionalId) {
  protocol::FindCoordinatorRequest request;
  request.key_type = 0;
  request.coordinator_keys = {"g", "h"};
  allow_group("g", AclOperation::kRead);  // implies DESCRIBE
  auto response = call<protocol::FindCoordinatorResponse>(request, 4);
  ASSERT_EQ(response.coordinators.size(), 2U);
  EXPECT_EQ(response.coordinators[0].error_code, ErrorCode::kNone);
  EXPECT_EQ(response.coordinators[1].error_code, ErrorCode::kGroupAuthorizationFailed);
  EXPECT_EQ(response.coordinators[1].node_id, -1);

  request.key_type = 1;
  request.coordinator_keys = {"tx"};
  response = call<protocol::FindCoordinatorResponse>(request, 4);
  EXPECT_EQ(response.coordinators.at(0).error_code, ErrorCode::kTransactionalIdAuthorizationFailed);
  allow(AclResourceType::kTransactionalId, "tx", AclOperation::kDescribe);
  response = call<protocol::FindCoordinatorResponse>(request, 4);
  EXPECT_EQ(response.coordinators.at(0).error_code, ErrorCode::kNone);
}

TEST_F(GroupAuthorization, ConsumerGroupHeartbeatNeedsReadOnTheGroupAndDescribeOnItsTopics) {
  protocol::ConsumerGroupHeartbeatRequest request;
  request.group_id = "cg";
  request.member_id = "m-1";
  request.member_epoch = 0;
  request.rebalance_timeout_ms = 10000;
  request.subscribed_topic_names = std::vector<std::string_view>{"orders", "payments"};
  request.topic_partitions =
      std::vector<protocol::ConsumerGroupHeartbeatRequest::TopicPartitions>{};
  EXPECT_EQ(call<protocol::ConsumerGroupHeartbeatResponse>(request, 1).error_code,
            ErrorCode::kGroupAuthorizationFailed);
  allow_group("cg", AclOperation::kRead);
  allow_topic("orders", AclOperation::kDescribe);
  EXPECT_EQ(call<protocol::ConsumerGroupHeartbeatResponse>(request, 1).error_code,
            ErrorCode::kTopicAuthorizationFailed);
  allow_topic("payments", AclOperation::kRead);
  const ErrorCode joined = call<protocol::ConsumerGroupHeartbeatResponse>(request, 1).error_code;
  EXPECT_NE(joined, ErrorCode::kTopicAuthorizationFailed);
  EXPECT_NE(joined, ErrorCode::kGroupAuthorizationFailed);
}

TEST_F(GroupAuthorization, ShareFetchNeedsReadOnTheGroupBeforeAnythingElse) {
  protocol::ShareFetchRequest request;
  request.group_id = "sg";
  request.member_id = "m-1";
  request.share_session_epoch = 0;
  request.max_records = 10;
  request.batch_size = 10;
  request.topics = {{.topic_id = broker_.cluster().find_topic("orders")->id,
                     .partitions = {{.partition_index = 0}}}};
  const auto response = call<protocol::ShareFetchResponse>(request, 1);
  EXPECT_EQ(response.error_code, ErrorCode::kGroupAuthorizationFailed);
  EXPECT_TRUE(response.responses.empty());
}

}  // namespace
}  // namespace kgroups::broker
