// SPDX-License-Identifier: Apache-2.0
//
// Kafka's authorization of the transaction APIs, with the authorizer on: WRITE on the
// transactional id for InitProducerId, AddPartitionsToTxn, AddOffsetsToTxn, EndTxn and
// TxnOffsetCommit; an idempotent InitProducerId needs IDEMPOTENT_WRITE on the cluster or WRITE
// on some topic (Kafka's authorizeByResourceType, deny patterns dominating); then WRITE per
// topic (AddPartitionsToTxn: the others OPERATION_NOT_ATTEMPTED) or READ on the group and its
// topics (AddOffsetsToTxn, TxnOffsetCommit).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "broker/handlers/authorization_for_tests.h"
#include "protocol/messages/add_offsets_to_txn.h"
#include "protocol/messages/add_partitions_to_txn.h"
#include "protocol/messages/end_txn.h"
#include "protocol/messages/init_producer_id.h"
#include "protocol/messages/txn_offset_commit.h"

namespace kgroups::broker {
namespace {

using protocol::ErrorCode;
using testing::AuthorizingBrokerTest;

class TransactionAuthorization : public AuthorizingBrokerTest {
 protected:
  TransactionAuthorization() {
    for (const char* name : {"orders", "payments"}) {
      EXPECT_EQ(broker_.cluster().create_topic(name, 1), ErrorCode::kNone);
    }
  }

  protocol::InitProducerIdResponse init(std::optional<std::string_view> transactional_id) {
    protocol::InitProducerIdRequest request;
    request.transactional_id = transactional_id;
    request.transaction_timeout_ms = 60000;
    return call<protocol::InitProducerIdResponse>(request, 4);
  }

  // A producer id and epoch for "tx", with WRITE on it.
  protocol::InitProducerIdResponse begin() {
    allow(AclResourceType::kTransactionalId, "tx", AclOperation::kWrite);
    const auto response = init("tx");
    EXPECT_EQ(response.error_code, ErrorCode::kNone);
    return response;
  }
};

TEST_F(TransactionAuthorization, TransactionalInitProducerIdNeedsWriteOnTheTransactionalId) {
  auto response = init("tx");
  EXPECT_EQ(response.error_code, ErrorCode::kTransactionalIdAuthorizationFailed);
  EXPECT_EQ(response.producer_id, -1);
  allow(AclResourceType::kTransactionalId, "tx", AclOperation::kDescribe);
  EXPECT_EQ(init("tx").error_code, ErrorCode::kTransactionalIdAuthorizationFailed);
  allow(AclResourceType::kTransactionalId, "t", AclOperation::kWrite, AclPatternType::kPrefixed);
  response = init("tx");
  EXPECT_EQ(response.error_code, ErrorCode::kNone);
  EXPECT_GE(response.producer_id, 0);
}

TEST_F(TransactionAuthorization, IdempotentInitProducerIdNeedsIdempotentWriteOrWriteOnSomeTopic) {
  EXPECT_EQ(init(std::nullopt).error_code, ErrorCode::kClusterAuthorizationFailed);
  allow_topic("orders", AclOperation::kWrite);
  EXPECT_EQ(init(std::nullopt).error_code, ErrorCode::kNone);
}

TEST_F(TransactionAuthorization, IdempotentWriteOnTheClusterIsEnoughWithoutTopics) {
  allow_cluster(AclOperation::kIdempotentWrite);
  EXPECT_EQ(init(std::nullopt).error_code, ErrorCode::kNone);
}

TEST_F(TransactionAuthorization, ADenyingPrefixDominatesEveryTopicWriteAllowed) {
  allow_topic("orders", AclOperation::kWrite);
  allow(AclResourceType::kTopic, "ord", AclOperation::kWrite, AclPatternType::kPrefixed);
  deny(AclResourceType::kTopic, "or", AclOperation::kWrite, AclPatternType::kPrefixed);
  EXPECT_EQ(init(std::nullopt).error_code, ErrorCode::kClusterAuthorizationFailed);
  allow_topic("payments", AclOperation::kWrite);  // not under the denied prefix
  EXPECT_EQ(init(std::nullopt).error_code, ErrorCode::kNone);
}

TEST_F(TransactionAuthorization, AWildcardDenyRefusesIdempotenceThroughTopics) {
  allow_topic("orders", AclOperation::kWrite);
  deny(AclResourceType::kTopic, "*", AclOperation::kWrite);
  EXPECT_EQ(init(std::nullopt).error_code, ErrorCode::kClusterAuthorizationFailed);
}

TEST_F(TransactionAuthorization, AddPartitionsToTxnNeedsWriteOnTheIdThenOnEachTopic) {
  const auto producer = begin();
  protocol::AddPartitionsToTxnRequest request;
  request.transactional_id = "other";
  request.producer_id = producer.producer_id;
  request.producer_epoch = producer.producer_epoch;
  request.topics = {{.name = "orders", .partitions = {0}}, {.name = "payments", .partitions = {0}}};
  auto response = call<protocol::AddPartitionsToTxnResponse>(request, 3);
  for (const auto& topic : response.results) {
    EXPECT_EQ(topic.results.at(0).error_code, ErrorCode::kTransactionalIdAuthorizationFailed);
  }
  request.transactional_id = "tx";
  allow_topic("orders", AclOperation::kWrite);
  response = call<protocol::AddPartitionsToTxnResponse>(request, 3);
  ASSERT_EQ(response.results.size(), 2U);
  EXPECT_EQ(response.results[0].results.at(0).error_code, ErrorCode::kOperationNotAttempted);
  EXPECT_EQ(response.results[1].results.at(0).error_code, ErrorCode::kTopicAuthorizationFailed);
  allow_topic("payments", AclOperation::kWrite);
  response = call<protocol::AddPartitionsToTxnResponse>(request, 3);
  EXPECT_EQ(response.results[0].results.at(0).error_code, ErrorCode::kNone);
  EXPECT_EQ(response.results[1].results.at(0).error_code, ErrorCode::kNone);
}

TEST_F(TransactionAuthorization, AddOffsetsToTxnNeedsReadOnTheGroup) {
  const auto producer = begin();
  protocol::AddOffsetsToTxnRequest request;
  request.transactional_id = "tx";
  request.producer_id = producer.producer_id;
  request.producer_epoch = producer.producer_epoch;
  request.group_id = "g";
  EXPECT_EQ(call<protocol::AddOffsetsToTxnResponse>(request, 3).error_code,
            ErrorCode::kGroupAuthorizationFailed);
  allow_group("g", AclOperation::kRead);
  EXPECT_EQ(call<protocol::AddOffsetsToTxnResponse>(request, 3).error_code, ErrorCode::kNone);
}

TEST_F(TransactionAuthorization, EndTxnNeedsWriteOnTheTransactionalId) {
  const auto producer = begin();
  protocol::EndTxnRequest request;
  request.transactional_id = "tx";
  request.producer_id = producer.producer_id;
  request.producer_epoch = producer.producer_epoch;
  request.committed = false;
  EXPECT_NE(call<protocol::EndTxnResponse>(request, 3).error_code,
            ErrorCode::kTransactionalIdAuthorizationFailed);
  request.transactional_id = "tx2";
  EXPECT_EQ(call<protocol::EndTxnResponse>(request, 3).error_code,
            ErrorCode::kTransactionalIdAuthorizationFailed);
}

TEST_F(TransactionAuthorization, TxnOffsetCommitNeedsTheIdThenTheGroupThenEachTopic) {
  const auto producer = begin();
  protocol::TxnOffsetCommitRequest request;
  request.transactional_id = "tx2";
  request.group_id = "g";
  request.producer_id = producer.producer_id;
  request.producer_epoch = producer.producer_epoch;
  request.topics = {
      {.name = "orders", .partitions = {{.partition_index = 0, .committed_offset = 1}}},
      {.name = "payments", .partitions = {{.partition_index = 0, .committed_offset = 1}}}};
  const auto errors = [&] {
    std::vector<ErrorCode> out;
    for (const auto& topic : call<protocol::TxnOffsetCommitResponse>(request, 3).topics) {
      out.push_back(topic.partitions.at(0).error_code);
    }
    return out;
  };
  EXPECT_EQ(errors(), std::vector<ErrorCode>(2, ErrorCode::kTransactionalIdAuthorizationFailed));
  request.transactional_id = "tx";
  EXPECT_EQ(errors(), std::vector<ErrorCode>(2, ErrorCode::kGroupAuthorizationFailed));
  allow_group("g", AclOperation::kRead);
  allow_topic("orders", AclOperation::kRead);
  const std::vector<ErrorCode> answered = errors();
  ASSERT_EQ(answered.size(), 2U);
  EXPECT_NE(answered[0], ErrorCode::kTopicAuthorizationFailed);
  EXPECT_NE(answered[0], ErrorCode::kGroupAuthorizationFailed);
  EXPECT_EQ(answered[1], ErrorCode::kTopicAuthorizationFailed);
}

}  // namespace
}  // namespace kgroups::broker
