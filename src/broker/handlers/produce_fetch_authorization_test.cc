// SPDX-License-Identifier: Apache-2.0
//
// Kafka's authorization of the data-path APIs, with the authorizer on: Produce (WRITE per
// topic, WRITE on the transactional id for transactional records, CREATE to auto-create),
// Fetch (READ per topic, CLUSTER_ACTION for a follower, UNKNOWN_TOPIC_ID first), ListOffsets
// and OffsetForLeaderEpoch (DESCRIBE), DeleteRecords (DELETE); deny wins, prefixed ACLs apply.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "broker/handlers/authorization_for_tests.h"
#include "protocol/messages/delete_records.h"
#include "protocol/messages/fetch.h"
#include "protocol/messages/list_offsets.h"
#include "protocol/messages/offset_for_leader_epoch.h"
#include "protocol/messages/produce.h"
#include "protocol/record_batch_builder.h"

namespace kgroups::broker {
namespace {

using protocol::ErrorCode;
using testing::AuthorizingBrokerTest;

class ProduceFetchAuthorization : public AuthorizingBrokerTest {
 protected:
  ProduceFetchAuthorization() {
    for (const char* name : {"orders", "payments", "ordinal"}) {
      EXPECT_EQ(broker_.cluster().create_topic(name, 1), ErrorCode::kNone);
    }
  }

  // One record to partition 0 of each topic; `attributes` 0x10 makes it transactional.
  protocol::ProduceResponse produce(const std::vector<std::string>& topics,
                                    std::int16_t attributes = 0,
                                    std::optional<std::string> transactional_id = std::nullopt) {
    protocol::RecordBatchBuilder builder;
    if (attributes != 0) {
      builder.set_producer(7, 0, 0);
      builder.set_attributes(attributes);
    }
    builder.add(std::nullopt, protocol::ByteView::of("v"), 1000);
    batch_ = builder.build();
    protocol::ProduceRequest request;
    request.acks = 1;
    request.timeout_ms = 1000;
    if (transactional_id) request.transactional_id = *transactional_id;
    for (const std::string& topic : topics) {
      request.topic_data.push_back(
          {.name = topic, .partition_data = {{.index = 0, .records = protocol::ByteView(batch_)}}});
    }
    return call<protocol::ProduceResponse>(request, 9);
  }

  static ErrorCode error_of(const protocol::ProduceResponse& response, std::string_view topic) {
    for (const auto& answered : response.responses) {
      if (answered.name == topic) return answered.partition_responses.at(0).error_code;
    }
    ADD_FAILURE() << "no answer for " << topic;
    return ErrorCode::kUnknownServerError;
  }

  protocol::FetchResponse fetch(const std::vector<std::string>& topics,
                                std::int32_t replica_id = -1) {
    protocol::FetchRequest request;
    request.replica_id = replica_id;
    request.max_wait_ms = 0;
    request.session_epoch = -1;
    for (const std::string& topic : topics) {
      request.topics.push_back(
          {.topic = topic, .partitions = {{.partition = 0, .partition_max_bytes = 1 << 20}}});
    }
    names_ = topics;  // the request views them
    return call<protocol::FetchResponse>(request, 12);
  }

  static ErrorCode error_of(const protocol::FetchResponse& response, std::string_view topic) {
    for (const auto& answered : response.responses) {
      if (answered.topic == topic) return answered.partitions.at(0).error_code;
    }
    ADD_FAILURE() << "no answer for " << topic;
    return ErrorCode::kUnknownServerError;
  }

  std::int64_t high_watermark(std::string_view topic) {
    return broker_.cluster().find_partition(topic, 0)->high_watermark();
  }

  std::vector<std::uint8_t> batch_;
  std::vector<std::string> names_;
};

TEST_F(ProduceFetchAuthorization, ProduceNeedsWriteOnEachTopic) {
  allow_topic("orders", AclOperation::kWrite);
  const auto response = produce({"orders", "payments"});
  EXPECT_EQ(error_of(response, "orders"), ErrorCode::kNone);
  EXPECT_EQ(error_of(response, "payments"), ErrorCode::kTopicAuthorizationFailed);
  EXPECT_EQ(high_watermark("orders"), 1);
  EXPECT_EQ(high_watermark("payments"), 0);
}

TEST_F(ProduceFetchAuthorization, ProduceWithoutAnyAclIsDenied) {
  EXPECT_EQ(error_of(produce({"orders"}), "orders"), ErrorCode::kTopicAuthorizationFailed);
  EXPECT_EQ(high_watermark("orders"), 0);
}

TEST_F(ProduceFetchAuthorization, ReadDoesNotAllowProduce) {
  allow_topic("orders", AclOperation::kRead);
  EXPECT_EQ(error_of(produce({"orders"}), "orders"), ErrorCode::kTopicAuthorizationFailed);
}

TEST_F(ProduceFetchAuthorization, PrefixedAllowAppliesAndALiteralDenyWins) {
  allow(AclResourceType::kTopic, "ord", AclOperation::kWrite, AclPatternType::kPrefixed);
  deny(AclResourceType::kTopic, "orders", AclOperation::kWrite);
  const auto response = produce({"orders", "ordinal"});
  EXPECT_EQ(error_of(response, "orders"), ErrorCode::kTopicAuthorizationFailed);
  EXPECT_EQ(error_of(response, "ordinal"), ErrorCode::kNone);
}

TEST_F(ProduceFetchAuthorization, TransactionalProduceNeedsWriteOnTheTransactionalId) {
  allow_topic("orders", AclOperation::kWrite);
  const auto response = produce({"orders"}, 0x10, "tx-1");
  EXPECT_EQ(error_of(response, "orders"), ErrorCode::kTransactionalIdAuthorizationFailed);
  EXPECT_EQ(high_watermark("orders"), 0);
}

TEST_F(ProduceFetchAuthorization, TransactionalRecordsWithoutATransactionalIdAreRefused) {
  allow_topic("orders", AclOperation::kWrite);
  allow(AclResourceType::kTransactionalId, "*", AclOperation::kWrite);
  EXPECT_EQ(error_of(produce({"orders"}, 0x10), "orders"),
            ErrorCode::kTransactionalIdAuthorizationFailed);
}

TEST_F(ProduceFetchAuthorization, ProduceAutoCreatesOnlyWithCreate) {
  allow_topic("fresh", AclOperation::kWrite);
  EXPECT_EQ(error_of(produce({"fresh"}), "fresh"), ErrorCode::kUnknownTopicOrPartition);
  EXPECT_EQ(broker_.cluster().find_topic("fresh"), nullptr);
  allow_cluster(AclOperation::kCreate);
  EXPECT_EQ(error_of(produce({"fresh"}), "fresh"), ErrorCode::kNone);
  EXPECT_NE(broker_.cluster().find_topic("fresh"), nullptr);
}

TEST_F(ProduceFetchAuthorization, FetchNeedsReadOnEachTopic) {
  allow_topic("orders", AclOperation::kRead);
  allow_topic("payments", AclOperation::kWrite);  // WRITE does not imply READ
  const auto response = fetch({"orders", "payments"});
  EXPECT_EQ(error_of(response, "orders"), ErrorCode::kNone);
  EXPECT_EQ(error_of(response, "payments"), ErrorCode::kTopicAuthorizationFailed);
}

TEST_F(ProduceFetchAuthorization, FetchDenyForAllPrincipalsWins) {
  allow_topic("orders", AclOperation::kRead);
  acl(AclPermissionType::kDeny, AclResourceType::kTopic, "orders", AclOperation::kAll,
      AclPatternType::kLiteral, "User:*");
  EXPECT_EQ(error_of(fetch({"orders"}), "orders"), ErrorCode::kTopicAuthorizationFailed);
}

TEST_F(ProduceFetchAuthorization, FollowerFetchNeedsClusterAction) {
  allow_topic("orders", AclOperation::kRead);
  EXPECT_EQ(error_of(fetch({"orders"}, 1), "orders"), ErrorCode::kTopicAuthorizationFailed);
  allow_cluster(AclOperation::kClusterAction);
  EXPECT_EQ(error_of(fetch({"orders"}, 1), "orders"), ErrorCode::kNone);
}

TEST_F(ProduceFetchAuthorization, FetchByUnknownTopicIdAnswersUnknownTopicId) {
  protocol::FetchRequest request;
  request.max_wait_ms = 0;
  request.session_epoch = -1;
  protocol::Uuid unknown{};
  unknown[15] = 42;
  request.topics.push_back({.topic_id = unknown, .partitions = {{.partition = 0}}});
  const StoredTopic* orders = broker_.cluster().find_topic("orders");
  request.topics.push_back({.topic_id = orders->id, .partitions = {{.partition = 0}}});
  const auto response = call<protocol::FetchResponse>(request, 13);
  ASSERT_EQ(response.responses.size(), 2U);
  for (const auto& topic : response.responses) {
    EXPECT_EQ(topic.partitions.at(0).error_code, topic.topic_id == unknown
                                                     ? ErrorCode::kUnknownTopicId
                                                     : ErrorCode::kTopicAuthorizationFailed);
  }
}

TEST_F(ProduceFetchAuthorization, ListOffsetsNeedsDescribe) {
  allow_topic("orders", AclOperation::kWrite);  // WRITE implies DESCRIBE
  protocol::ListOffsetsRequest request;
  request.topics = {{.name = "orders", .partitions = {{.partition_index = 0}}},
                    {.name = "payments", .partitions = {{.partition_index = 0}}}};
  const auto response = call<protocol::ListOffsetsResponse>(request, 7);
  ASSERT_EQ(response.topics.size(), 2U);
  for (const auto& topic : response.topics) {
    EXPECT_EQ(topic.partitions.at(0).error_code,
              topic.name == "orders" ? ErrorCode::kNone : ErrorCode::kTopicAuthorizationFailed);
  }
}

TEST_F(ProduceFetchAuthorization, OffsetForLeaderEpochNeedsDescribeOrClusterAction) {
  protocol::OffsetForLeaderEpochRequest request;
  request.replica_id = -1;
  request.topics = {{.topic = "orders", .partitions = {{.partition = 0, .leader_epoch = 0}}}};
  auto response = call<protocol::OffsetForLeaderEpochResponse>(request, 4);
  EXPECT_EQ(response.topics.at(0).partitions.at(0).error_code,
            ErrorCode::kTopicAuthorizationFailed);
  allow_cluster(AclOperation::kClusterAction);
  response = call<protocol::OffsetForLeaderEpochResponse>(request, 4);
  EXPECT_EQ(response.topics.at(0).partitions.at(0).error_code, ErrorCode::kNone);
}

TEST_F(ProduceFetchAuthorization, DeleteRecordsNeedsDelete) {
  allow_topic("orders", AclOperation::kWrite);
  ASSERT_EQ(error_of(produce({"orders"}), "orders"), ErrorCode::kNone);
  protocol::DeleteRecordsRequest request;
  request.topics = {{.name = "orders", .partitions = {{.partition_index = 0, .offset = -1}}}};
  auto response = call<protocol::DeleteRecordsResponse>(request, 2);
  EXPECT_EQ(response.topics.at(0).partitions.at(0).error_code,
            ErrorCode::kTopicAuthorizationFailed);
  allow_topic("orders", AclOperation::kDelete);
  response = call<protocol::DeleteRecordsResponse>(request, 2);
  EXPECT_EQ(response.topics.at(0).partitions.at(0).error_code, ErrorCode::kNone);
  EXPECT_EQ(response.topics.at(0).partitions.at(0).low_watermark, 1);
}

TEST(ProduceFetchWithoutAuthorizer, EverythingIsAllowedWithoutAcls) {
  Broker broker(BrokerConfig{}, testing::kTestMachineBytes);
  asio::io_context io;
  ConnectionAuth bob(false, "127.0.0.1", "User:bob");
  ASSERT_EQ(broker.cluster().create_topic("orders", 1), ErrorCode::kNone);
  protocol::RecordBatchBuilder builder;
  builder.add(std::nullopt, protocol::ByteView::of("v"), 1000);
  const std::vector<std::uint8_t> batch = builder.build();
  protocol::ProduceRequest request;
  request.acks = 1;
  request.timeout_ms = 1000;
  request.topic_data = {
      {.name = "orders", .partition_data = {{.index = 0, .records = protocol::ByteView(batch)}}}};
  const auto response = call_handler<protocol::ProduceResponse>(broker, io, request, 9, 0, &bob);
  EXPECT_EQ(response.responses.at(0).partition_responses.at(0).error_code, ErrorCode::kNone);
}

}  // namespace
}  // namespace kgroups::broker
