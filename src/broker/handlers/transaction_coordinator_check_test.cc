// SPDX-License-Identifier: Apache-2.0
//
// The transaction coordinator's APIs with --brokers 3: a transactional id's coordinator is the
// leader of its __transaction_state partition (created by the first FindCoordinator of a
// transactional id). InitProducerId, AddPartitionsToTxn, AddOffsetsToTxn and EndTxn sent to
// another broker get NOT_COORDINATOR; when the coordinator stops, the partition's new leader
// answers COORDINATOR_LOAD_IN_PROGRESS until it loaded the partition, then goes on with the
// transaction the log holds (and drops an id only memory held).
#include <gtest/gtest.h>

#include <asio/io_context.hpp>
#include <string>
#include <vector>

#include "broker/handlers/handler_call_for_tests.h"
#include "broker/node/broker.h"
#include "broker/node/three_broker_config_for_tests.h"
#include "protocol/messages/add_offsets_to_txn.h"
#include "protocol/messages/add_partitions_to_txn.h"
#include "protocol/messages/end_txn.h"
#include "protocol/messages/find_coordinator.h"
#include "protocol/messages/init_producer_id.h"

namespace kgroups::broker {
namespace {

using protocol::ErrorCode;

constexpr std::string_view kId = "payments-tx";

BrokerConfig three_brokers() {
  BrokerConfig config = testing::three_broker_config();
  config.transaction_state_log_num_partitions = 1;  // every id in one partition
  return config;
}

class TransactionCoordinatorCheck : public ::testing::Test {
 protected:
  TransactionCoordinatorCheck() {
    EXPECT_EQ(broker_.cluster().create_topic("out", 1), ErrorCode::kNone);
  }

  std::int32_t find_coordinator() {
    protocol::FindCoordinatorRequest request;
    request.key = kId;
    request.key_type = 1;
    const auto response = call_handler<protocol::FindCoordinatorResponse>(broker_, io_, request, 3);
    EXPECT_EQ(response.error_code, ErrorCode::kNone);
    return response.node_id;
  }

  protocol::InitProducerIdResponse init(std::int32_t node) {
    protocol::InitProducerIdRequest request;
    request.transactional_id = kId;
    request.transaction_timeout_ms = 60000;
    return call_handler<protocol::InitProducerIdResponse>(broker_, io_, request, 4, node);
  }

  ErrorCode add_partition(std::int32_t node) {
    protocol::AddPartitionsToTxnRequest request;
    request.transactional_id = kId;
    request.producer_id = producer_id_;
    request.producer_epoch = 0;
    request.topics.push_back({.name = "out", .partitions = {0}});
    const auto response =
        call_handler<protocol::AddPartitionsToTxnResponse>(broker_, io_, request, 3, node);
    return response.results.at(0).results.at(0).error_code;
  }

  ErrorCode add_offsets(std::int32_t node) {
    protocol::AddOffsetsToTxnRequest request;
    request.transactional_id = kId;
    request.producer_id = producer_id_;
    request.producer_epoch = 0;
    request.group_id = "billing";
    return call_handler<protocol::AddOffsetsToTxnResponse>(broker_, io_, request, 3, node)
        .error_code;
  }

  ErrorCode end(std::int32_t node, bool commit) {
    protocol::EndTxnRequest request;
    request.transactional_id = kId;
    request.producer_id = producer_id_;
    request.producer_epoch = 0;
    request.committed = commit;
    return call_handler<protocol::EndTxnResponse>(broker_, io_, request, 3, node).error_code;
  }

  // A broker that does not coordinate the id.
  std::int32_t other_than(std::int32_t node) const { return (node + 1) % 3; }

  Broker broker_{three_brokers(), testing::kTestMachineBytes};
  asio::io_context io_;            // runs the handlers
  asio::io_context broker_turns_;  // the broker's own turns: the loads of a moved partition
  std::int64_t producer_id_ = -1;
};

TEST_F(TransactionCoordinatorCheck, OnlyTheLeaderOfTheIdsPartitionCoordinatesIt) {
  const std::int32_t coordinator = find_coordinator();
  const StoredTopic* log = broker_.cluster().find_topic(kTransactionStateTopicName);
  ASSERT_NE(log, nullptr);
  EXPECT_TRUE(log->internal);
  const std::int32_t partition = broker_.transaction_state_topic().partition_for(kId);
  EXPECT_EQ(coordinator, log->partitions[static_cast<std::size_t>(partition)].replicas().leader());

  const std::int32_t other = other_than(coordinator);
  const protocol::InitProducerIdResponse refused = init(other);
  EXPECT_EQ(refused.error_code, ErrorCode::kNotCoordinator);
  EXPECT_EQ(refused.producer_id, -1);
  EXPECT_EQ(broker_.transactions().state(kId), std::nullopt);
  const protocol::InitProducerIdResponse producer = init(coordinator);
  ASSERT_EQ(producer.error_code, ErrorCode::kNone);
  producer_id_ = producer.producer_id;

  EXPECT_EQ(add_partition(other), ErrorCode::kNotCoordinator);
  EXPECT_EQ(add_offsets(other), ErrorCode::kNotCoordinator);
  EXPECT_EQ(broker_.transactions().state(kId), TransactionState::kEmpty);
  EXPECT_EQ(add_partition(coordinator), ErrorCode::kNone);
  EXPECT_EQ(add_offsets(coordinator), ErrorCode::kNone);
  EXPECT_EQ(end(other, /*commit=*/true), ErrorCode::kNotCoordinator);
  EXPECT_EQ(broker_.transactions().state(kId), TransactionState::kOngoing);
  EXPECT_EQ(end(coordinator, /*commit=*/true), ErrorCode::kNone);
  EXPECT_EQ(broker_.transactions().state(kId), TransactionState::kCompleteCommit);
}

TEST_F(TransactionCoordinatorCheck, TheNewCoordinatorLoadsThePartitionBeforeServing) {
  const std::int32_t first = find_coordinator();
  const protocol::InitProducerIdResponse producer = init(first);
  ASSERT_EQ(producer.error_code, ErrorCode::kNone);
  producer_id_ = producer.producer_id;
  ASSERT_EQ(add_partition(first), ErrorCode::kNone);
  // Memory alone learns of another id: the new coordinator, loading the log, drops it.
  broker_.transactions().set_log(nullptr);
  ASSERT_EQ(broker_.transactions().init_producer_id("memory-only", 60000, -1, -1).error,
            ErrorCode::kNone);
  broker_.transactions().set_log(&broker_.transaction_state_topic());

  broker_.start(broker_turns_.get_executor());
  ASSERT_EQ(broker_.replication().stop(first), ErrorCode::kNone);
  const std::int32_t second = find_coordinator();
  ASSERT_NE(second, first);
  ASSERT_NE(second, -1);
  EXPECT_TRUE(broker_.coordinator_loading(kId, /*transactional=*/true));
  EXPECT_EQ(end(second, /*commit=*/true), ErrorCode::kCoordinatorLoadInProgress);
  EXPECT_EQ(add_offsets(second), ErrorCode::kCoordinatorLoadInProgress);
  EXPECT_EQ(init(second).error_code, ErrorCode::kCoordinatorLoadInProgress);
  const std::int32_t third = 3 - first - second;  // running, and not the coordinator
  EXPECT_EQ(end(third, /*commit=*/true), ErrorCode::kNotCoordinator);
  const std::string moved = "\"coordinator\":" + std::to_string(second);
  bool published = false;
  for (const Event* event : broker_.events().since(0)) {
    published =
        published || (event->type == "coordinator_moved" &&
                      event->json.find("\"transaction_state_partition\"") != std::string::npos &&
                      event->json.find(moved) != std::string::npos);
  }
  EXPECT_TRUE(published);

  broker_turns_.poll();  // the load runs on the broker's next turn
  EXPECT_FALSE(broker_.coordinator_loading(kId, /*transactional=*/true));
  EXPECT_EQ(broker_.transactions().state("memory-only"), std::nullopt);
  EXPECT_EQ(broker_.transactions().state(kId), TransactionState::kOngoing);
  EXPECT_EQ(end(second, /*commit=*/true), ErrorCode::kNone);
  EXPECT_EQ(broker_.transactions().state(kId), TransactionState::kCompleteCommit);
  broker_turns_.stop();
}

}  // namespace
}  // namespace kgroups::broker
