// SPDX-License-Identifier: Apache-2.0
//
// The AlterPartitionReassignments handler at v0 and v1, driven as a connection drives it: the
// request encoded to bytes, the API table's handler run on a three-broker Broker, the response
// decoded from what it wrote. v1's allow_replication_factor_change false refuses a new
// replication factor per partition (INVALID_REPLICATION_FACTOR, with a message) and is echoed.
#include <gtest/gtest.h>

#include <asio/io_context.hpp>
#include <string>
#include <vector>

#include "broker/handlers/api_table.h"
#include "broker/handlers/handler_call_for_tests.h"
#include "broker/node/broker.h"
#include "broker/node/three_broker_config_for_tests.h"
#include "protocol/messages/alter_partition_reassignments.h"

namespace kgroups::broker {
namespace {

using protocol::AlterPartitionReassignmentsRequest;
using protocol::AlterPartitionReassignmentsResponse;
using protocol::ErrorCode;
using Nodes = std::vector<std::int32_t>;

class AlterPartitionReassignmentsHandler : public ::testing::Test {
 protected:
  AlterPartitionReassignmentsHandler() {
    // Partition 0 on brokers 0 and 1, partition 1 on brokers 1 and 2.
    EXPECT_EQ(
        broker_.cluster().create_topic("t", 2, std::nullopt, {.assignment = {{0, 1}, {1, 2}}}),
        ErrorCode::kNone);
  }
  // Partition 0 to `first`, partition 1 to `second`, at `version`.
  AlterPartitionReassignmentsResponse move(std::int16_t version, bool allow_factor_change,
                                           const Nodes& first, const Nodes& second) {
    AlterPartitionReassignmentsRequest request;
    request.allow_replication_factor_change = allow_factor_change;
    request.topics = {{.name = "t",
                       .partitions = {{.partition_index = 0, .replicas = first},
                                      {.partition_index = 1, .replicas = second}}}};
    return call(request, version);
  }
  AlterPartitionReassignmentsResponse call(const AlterPartitionReassignmentsRequest& request,
                                           std::int16_t version) {
    return call_handler<AlterPartitionReassignmentsResponse>(broker_, io_, request, version);
  }
  Nodes replicas(std::int32_t partition) {
    return broker_.cluster().find_partition("t", partition)->replicas().replica_nodes();
  }

  Broker broker_{testing::three_broker_config(), testing::kTestMachineBytes};
  asio::io_context io_;
};

TEST_F(AlterPartitionReassignmentsHandler, TheTableServesVersionsZeroAndOne) {
  const ApiEntry* entry = find_api(protocol::ApiKey::kAlterPartitionReassignments);
  ASSERT_NE(entry, nullptr);
  EXPECT_EQ(entry->min_version, 0);
  EXPECT_EQ(entry->max_version, 1);
}

TEST_F(AlterPartitionReassignmentsHandler, V0ChangesTheReplicationFactor) {
  const AlterPartitionReassignmentsResponse response = move(0, true, {0, 1, 2}, {2});
  ASSERT_EQ(response.responses.size(), 1U);
  ASSERT_EQ(response.responses[0].partitions.size(), 2U);
  EXPECT_EQ(response.responses[0].partitions[0].error_code, ErrorCode::kNone);
  EXPECT_EQ(response.responses[0].partitions[1].error_code, ErrorCode::kNone);
  EXPECT_EQ(replicas(0), (Nodes{0, 1, 2}));  // the added replica is out of the ISR for now
  EXPECT_EQ(replicas(1), (Nodes{2}));        // removing an in-sync replica completes at once
}

TEST_F(AlterPartitionReassignmentsHandler, V1WithoutAFactorChangeRefusesOnlyTheNewFactor) {
  const AlterPartitionReassignmentsResponse response = move(1, false, {0, 1, 2}, {2, 0});
  EXPECT_FALSE(response.allow_replication_factor_change);  // echoed: the broker applied it
  EXPECT_EQ(response.error_code, ErrorCode::kNone);
  ASSERT_EQ(response.responses.size(), 1U);
  const auto& partitions = response.responses[0].partitions;
  ASSERT_EQ(partitions.size(), 2U);
  EXPECT_EQ(partitions[0].error_code, ErrorCode::kInvalidReplicationFactor);
  ASSERT_TRUE(partitions[0].error_message.has_value());
  EXPECT_NE(partitions[0].error_message->find("from 2 to 3"), std::string::npos)
      << *partitions[0].error_message;
  EXPECT_EQ(partitions[1].error_code, ErrorCode::kNone);
  EXPECT_FALSE(partitions[1].error_message.has_value());
  EXPECT_EQ(replicas(0), (Nodes{0, 1}));     // unchanged
  EXPECT_EQ(replicas(1), (Nodes{2, 0, 1}));  // moving: the union, targets first
}

TEST_F(AlterPartitionReassignmentsHandler, V1AllowingAFactorChangeMovesAndSaysSo) {
  const AlterPartitionReassignmentsResponse response = move(1, true, {0, 1, 2}, {1});
  EXPECT_TRUE(response.allow_replication_factor_change);
  EXPECT_EQ(response.responses[0].partitions[0].error_code, ErrorCode::kNone);
  EXPECT_EQ(response.responses[0].partitions[1].error_code, ErrorCode::kNone);
  EXPECT_EQ(replicas(1), (Nodes{1}));
}

TEST_F(AlterPartitionReassignmentsHandler, V1CancellingIsNotAFactorChange) {
  ASSERT_EQ(broker_.replication().set_replication_delay(2, 1'000'000'000), ErrorCode::kNone);
  ASSERT_EQ(move(1, true, {0, 2}, {1, 2}).responses[0].partitions[0].error_code, ErrorCode::kNone);
  AlterPartitionReassignmentsRequest cancel;
  cancel.allow_replication_factor_change = false;
  cancel.topics = {{.name = "t", .partitions = {{.partition_index = 0, .replicas = std::nullopt}}}};
  const AlterPartitionReassignmentsResponse response = call(cancel, 1);
  EXPECT_EQ(response.responses[0].partitions[0].error_code, ErrorCode::kNone);
  EXPECT_EQ(replicas(0), (Nodes{0, 1}));
}

}  // namespace
}  // namespace kgroups::broker
