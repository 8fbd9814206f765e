// SPDX-License-Identifier: Apache-2.0
//
// The handlers' fault hooks, driven as the connection drives them: a request encoded to bytes,
// its API table handler run on an in-process Broker, and the response decoded from the bytes
// it wrote.
#include <gtest/gtest.h>

#include <asio/io_context.hpp>
#include <optional>
#include <string>
#include <vector>

#include "broker/handlers/handler_call_for_tests.h"
#include "broker/http/fault_json.h"
#include "broker/node/broker.h"
#include "protocol/messages/fetch.h"
#include "protocol/messages/find_coordinator.h"
#include "protocol/messages/heartbeat.h"
#include "protocol/messages/init_producer_id.h"
#include "protocol/messages/join_group.h"
#include "protocol/messages/list_offsets.h"
#include "protocol/messages/offset_commit.h"
#include "protocol/messages/offset_fetch.h"
#include "protocol/messages/produce.h"
#include "protocol/record_batch_builder.h"

namespace kgroups::broker {
namespace {

using protocol::ApiKey;
using protocol::ErrorCode;

constexpr std::int64_t kMachineBytes = std::int64_t{8} << 30;

class FaultHooks : public ::testing::Test {
 protected:
  FaultHooks() { EXPECT_EQ(broker_.cluster().create_topic("orders", 2), ErrorCode::kNone); }

  void arm(std::string_view json) {
    ASSERT_NE(broker_.faults().arm(fault_from_json(json)), nullptr);
  }

  // Runs `request` through its handler at `version` and decodes the response it wrote.
  template <class Response, class Request>
  Response call(const Request& request, std::int16_t version) {
    return call_handler<Response>(broker_, io_, request, version);
  }

  protocol::ProduceResponse produce_one_record_to_each_partition() {
    protocol::RecordBatchBuilder builder;
    const std::vector<std::uint8_t> value{'v'};
    builder.add(std::nullopt, protocol::ByteView(value), 1000);
    batch_ = builder.build();
    protocol::ProduceRequest request;
    request.acks = -1;
    request.timeout_ms = 1000;
    auto& topic = request.topic_data.emplace_back();
    topic.name = "orders";
    topic.partition_data.push_back({.index = 0, .records = protocol::ByteView(batch_)});
    topic.partition_data.push_back({.index = 1, .records = protocol::ByteView(batch_)});
    return call<protocol::ProduceResponse>(request, 9);
  }

  std::int64_t end_offset(std::int32_t partition) {
    return broker_.cluster().find_partition("orders", partition)->high_watermark();
  }

  Broker broker_{BrokerConfig{}, kMachineBytes};
  asio::io_context io_;
  std::vector<std::uint8_t> batch_;
};

TEST_F(FaultHooks, ProduceStoresOnlyThePartitionsNoFaultMatches) {
  arm(R"({"api": "Produce", "error": "NOT_LEADER_OR_FOLLOWER", "topic": "orders",
          "partition": 1, "count": 2})");
  const protocol::ProduceResponse refused = produce_one_record_to_each_partition();
  ASSERT_EQ(refused.responses.size(), 1u);
  ASSERT_EQ(refused.responses[0].partition_responses.size(), 2u);
  EXPECT_EQ(refused.responses[0].partition_responses[0].error_code, ErrorCode::kNone);
  EXPECT_EQ(refused.responses[0].partition_responses[1].error_code,
            ErrorCode::kNotLeaderForPartition);
  EXPECT_EQ(end_offset(0), 1);
  EXPECT_EQ(end_offset(1), 0);  // not stored
  EXPECT_EQ(broker_.faults().armed().front().remaining, 1);

  produce_one_record_to_each_partition();  // the second and last request it applies to
  EXPECT_TRUE(broker_.faults().empty());
  const protocol::ProduceResponse stored = produce_one_record_to_each_partition();
  EXPECT_EQ(stored.responses[0].partition_responses[1].error_code, ErrorCode::kNone);
  EXPECT_EQ(end_offset(0), 3);
  EXPECT_EQ(end_offset(1), 1);
  EXPECT_EQ(broker_.faults().injected(ApiKey::kProduce), 2u);
}

TEST_F(FaultHooks, FetchAnswersTheMatchedPartitionsErrorAtOnceAndServesTheRest) {
  produce_one_record_to_each_partition();
  arm(R"({"api": "Fetch", "error": "NOT_LEADER_OR_FOLLOWER", "partition": 0})");
  protocol::FetchRequest request;
  request.max_wait_ms = 30000;  // an error answers at once, without waiting
  request.min_bytes = 1 << 20;
  request.max_bytes = 1 << 20;
  auto& topic = request.topics.emplace_back();
  topic.topic = "orders";
  topic.partitions.push_back({.partition = 0, .partition_max_bytes = 1 << 20});
  topic.partitions.push_back({.partition = 1, .partition_max_bytes = 1 << 20});
  const auto started = std::chrono::steady_clock::now();
  const protocol::FetchResponse response = call<protocol::FetchResponse>(request, 11);
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(5));
  ASSERT_EQ(response.responses.size(), 1u);
  ASSERT_EQ(response.responses[0].partitions.size(), 2u);
  EXPECT_EQ(response.responses[0].partitions[0].error_code, ErrorCode::kNotLeaderForPartition);
  EXPECT_TRUE(response.responses[0].partitions[0].records.empty());
  EXPECT_EQ(response.responses[0].partitions[1].error_code, ErrorCode::kNone);
  EXPECT_FALSE(response.responses[0].partitions[1].records.empty());
  EXPECT_TRUE(broker_.faults().empty());
}

TEST_F(FaultHooks, ListOffsetsAnswersTheMatchedPartitionsErrorWithOffsetMinusOne) {
  produce_one_record_to_each_partition();
  arm(R"({"api": "ListOffsets", "error": "LEADER_NOT_AVAILABLE", "topic": "orders",
          "partition": 1})");
  protocol::ListOffsetsRequest request;
  auto& topic = request.topics.emplace_back();
  topic.name = "orders";
  topic.partitions.push_back({.partition_index = 0, .timestamp = -1});
  topic.partitions.push_back({.partition_index = 1, .timestamp = -1});
  const auto response = call<protocol::ListOffsetsResponse>(request, 7);
  ASSERT_EQ(response.topics.at(0).partitions.size(), 2u);
  EXPECT_EQ(response.topics[0].partitions[0].offset, 1);
  EXPECT_EQ(response.topics[0].partitions[1].error_code, ErrorCode::kLeaderNotAvailable);
  EXPECT_EQ(response.topics[0].partitions[1].offset, -1);
}

TEST_F(FaultHooks, OffsetCommitCommitsOnlyTheUnmatchedPartitions) {
  arm(R"({"api": "OffsetCommit", "error": "REQUEST_TIMED_OUT", "group": "g", "partition": 1})");
  protocol::OffsetCommitRequest commit;
  commit.group_id = "g";
  commit.generation_id = -1;
  auto& topic = commit.topics.emplace_back();
  topic.name = "orders";
  topic.partitions.push_back({.partition_index = 0, .committed_offset = 5});
  topic.partitions.push_back({.partition_index = 1, .committed_offset = 7});
  const auto committed = call<protocol::OffsetCommitResponse>(commit, 8);
  EXPECT_EQ(committed.topics.at(0).partitions.at(0).error_code, ErrorCode::kNone);
  EXPECT_EQ(committed.topics[0].partitions.at(1).error_code, ErrorCode::kRequestTimedOut);

  protocol::OffsetFetchRequest fetch;
  fetch.group_id = "g";
  fetch.topics = std::vector<protocol::OffsetFetchRequest::Topic>{{"orders", {0, 1}}};
  const auto fetched = call<protocol::OffsetFetchResponse>(fetch, 6);
  ASSERT_EQ(fetched.topics.at(0).partitions.size(), 2u);
  EXPECT_EQ(fetched.topics[0].partitions[0].committed_offset, 5);
  EXPECT_EQ(fetched.topics[0].partitions[1].committed_offset, -1);  // never committed
}

TEST_F(FaultHooks, ACoordinatorFaultRefusesTheWholeCommitAndOffsetFetch) {
  arm(R"({"coordinator": "moved", "count": 2})");
  protocol::OffsetCommitRequest commit;
  commit.group_id = "g";
  auto& topic = commit.topics.emplace_back();
  topic.name = "orders";
  topic.partitions.push_back({.partition_index = 0, .committed_offset = 5});
  const auto committed = call<protocol::OffsetCommitResponse>(commit, 8);
  EXPECT_EQ(committed.topics.at(0).partitions.at(0).error_code, ErrorCode::kNotCoordinator);

  protocol::OffsetFetchRequest fetch;
  fetch.group_id = "g";
  fetch.topics = std::vector<protocol::OffsetFetchRequest::Topic>{{"orders", {0}}};
  EXPECT_EQ(call<protocol::OffsetFetchResponse>(fetch, 6).error_code, ErrorCode::kNotCoordinator);
  // Both used the fault: the offset was never committed.
  EXPECT_TRUE(broker_.faults().empty());
  EXPECT_EQ(
      call<protocol::OffsetFetchResponse>(fetch, 6).topics.at(0).partitions.at(0).committed_offset,
      -1);
}

TEST_F(FaultHooks, JoinGroupAnswersAnInjectedErrorAsTheCoordinatorAnswersItsOwn) {
  arm(R"({"coordinator": "unavailable", "group": "g"})");
  protocol::JoinGroupRequest request;
  request.group_id = "g";
  request.session_timeout_ms = 10000;
  request.rebalance_timeout_ms = 10000;
  request.member_id = "member-1";
  request.protocol_type = "consumer";
  request.protocols.push_back({.name = "range"});
  const auto response = call<protocol::JoinGroupResponse>(request, 7);
  EXPECT_EQ(response.error_code, ErrorCode::kCoordinatorNotAvailable);
  EXPECT_EQ(response.generation_id, -1);
  EXPECT_EQ(response.member_id, "member-1");
  EXPECT_EQ(response.leader, "");
  EXPECT_FALSE(response.protocol_name.has_value());
  EXPECT_TRUE(response.members.empty());
  EXPECT_EQ(broker_.groups().describe_group("g").state, "Dead");  // the group was not touched
}

TEST_F(FaultHooks, FindCoordinatorIsUnavailableOnlyForGroupKeys) {
  arm(R"({"coordinator": "unavailable", "count": -1})");
  protocol::FindCoordinatorRequest request;
  request.key = "g";
  request.key_type = 0;
  const auto group = call<protocol::FindCoordinatorResponse>(request, 2);
  EXPECT_EQ(group.error_code, ErrorCode::kCoordinatorNotAvailable);
  EXPECT_EQ(group.node_id, -1);
  request.key_type = 1;  // a transactional id: not a group coordinator lookup
  EXPECT_EQ(call<protocol::FindCoordinatorResponse>(request, 2).error_code, ErrorCode::kNone);

  protocol::FindCoordinatorRequest batched;
  batched.coordinator_keys = {"a", "b"};
  const auto both = call<protocol::FindCoordinatorResponse>(batched, 4);
  ASSERT_EQ(both.coordinators.size(), 2u);
  EXPECT_EQ(both.coordinators[0].error_code, ErrorCode::kCoordinatorNotAvailable);
  EXPECT_EQ(both.coordinators[1].error_code, ErrorCode::kCoordinatorNotAvailable);
}

TEST_F(FaultHooks, HeartbeatAndInitProducerIdAnswerTheirInjectedErrors) {
  arm(R"({"api": "Heartbeat", "error": "REBALANCE_IN_PROGRESS", "group": "g"})");
  protocol::HeartbeatRequest heartbeat;
  heartbeat.group_id = "g";
  heartbeat.generation_id = 1;
  heartbeat.member_id = "m";
  EXPECT_EQ(call<protocol::HeartbeatResponse>(heartbeat, 4).error_code,
            ErrorCode::kRebalanceInProgress);
  // Used up: the group's own answer now (it does not exist).
  EXPECT_EQ(call<protocol::HeartbeatResponse>(heartbeat, 4).error_code,
            ErrorCode::kUnknownMemberId);

  arm(R"({"api": "InitProducerId", "error": "COORDINATOR_LOAD_IN_PROGRESS"})");
  const auto refused = call<protocol::InitProducerIdResponse>(protocol::InitProducerIdRequest{}, 4);
  EXPECT_EQ(refused.error_code, ErrorCode::kCoordinatorLoadInProgress);
  EXPECT_EQ(refused.producer_id, -1);
  const auto issued = call<protocol::InitProducerIdResponse>(protocol::InitProducerIdRequest{}, 4);
  EXPECT_EQ(issued.error_code, ErrorCode::kNone);
  EXPECT_GE(issued.producer_id, 0);
}

}  // namespace
}  // namespace kgroups::broker
