// SPDX-License-Identifier: Apache-2.0
//
// AlterPartitionReassignments v0 and v1 (KIP-860): the bytes of each version, v1's
// allow_replication_factor_change after timeout_ms in the request and after throttle_time_ms
// in the response, and its default (true) when a v0 body is decoded.

#include "protocol/messages/alter_partition_reassignments.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "protocol/messages/round_trip.h"

namespace kgroups::protocol {
namespace {

using Bytes = std::vector<std::uint8_t>;

AlterPartitionReassignmentsRequest move_t0_to_1_2(bool allow_factor_change) {
  AlterPartitionReassignmentsRequest request;
  request.timeout_ms = 30000;
  request.allow_replication_factor_change = allow_factor_change;
  request.topics = {{.name = "t", .partitions = {{.partition_index = 0, .replicas = {{1, 2}}}}}};
  return request;
}

// timeout_ms, [v1: allow], topics: 1 compact ("t", partitions: 1 (0, replicas [1, 2], tags),
// tags), tags.
Bytes request_bytes(bool with_flag) {
  Bytes bytes = {0, 0, 0x75, 0x30};
  if (with_flag) bytes.push_back(0);
  const Bytes rest = {2, 2, 't', 2, 0, 0, 0, 0, 3, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0};
  bytes.insert(bytes.end(), rest.begin(), rest.end());
  return bytes;
}

TEST(AlterPartitionReassignments, V1RequestCarriesTheFlagAfterTheTimeout) {
  EXPECT_EQ(encode_message(move_t0_to_1_2(false), 1), request_bytes(true));
  EXPECT_EQ(encode_message(move_t0_to_1_2(false), 0), request_bytes(false));  // v0: no flag
}

TEST(AlterPartitionReassignments, AV0RequestDecodesAsAllowingAFactorChange) {
  const Bytes bytes = request_bytes(false);
  WireReader reader(bytes);
  const auto request = AlterPartitionReassignmentsRequest::decode(reader, 0);
  ASSERT_TRUE(request.has_value());
  EXPECT_TRUE(request->allow_replication_factor_change);
  ASSERT_EQ(request->topics.size(), 1U);
  EXPECT_EQ(request->topics[0].partitions[0].replicas, (std::vector<std::int32_t>{1, 2}));

  const Bytes v1 = request_bytes(true);
  WireReader v1_reader(v1);
  const auto refused = AlterPartitionReassignmentsRequest::decode(v1_reader, 1);
  ASSERT_TRUE(refused.has_value());
  EXPECT_FALSE(refused->allow_replication_factor_change);
}

TEST(AlterPartitionReassignments, V1ResponseEchoesTheFlagAfterTheThrottleTime) {
  AlterPartitionReassignmentsResponse response;
  response.allow_replication_factor_change = false;
  response.responses = {
      {.name = "t",
       .partitions = {{.partition_index = 0, .error_code = ErrorCode::kInvalidReplicationFactor}}}};
  // throttle, [v1: allow], error_code, error_message null, responses: 1 ("t", partitions: 1
  // (0, 38, null, tags), tags), tags.
  const Bytes tail = {0, 0, 0, 2, 2, 't', 2, 0, 0, 0, 0, 0, 38, 0, 0, 0, 0};
  Bytes v1 = {0, 0, 0, 0, 0};
  v1.insert(v1.end(), tail.begin(), tail.end());
  Bytes v0 = {0, 0, 0, 0};
  v0.insert(v0.end(), tail.begin(), tail.end());
  EXPECT_EQ(encode_message(response, 1), v1);
  EXPECT_EQ(encode_message(response, 0), v0);
}

TEST(AlterPartitionReassignments, BothVersionsRoundTrip) {
  expect_round_trip_all_versions<AlterPartitionReassignmentsRequest>([](std::int16_t version) {
    AlterPartitionReassignmentsRequest request = move_t0_to_1_2(version == 0);
    request.topics[0].partitions.push_back({.partition_index = 1, .replicas = std::nullopt});
    return request;
  });
  expect_round_trip_all_versions<AlterPartitionReassignmentsResponse>([](std::int16_t version) {
    AlterPartitionReassignmentsResponse response;
    response.throttle_time_ms = 5;
    response.allow_replication_factor_change = version == 0;
    response.responses = {{.name = "t",
                           .partitions = {{.partition_index = 0,
                                           .error_code = ErrorCode::kInvalidReplicationFactor,
                                           .error_message = "from 2 to 3"}}}};
    return response;
  });
  expect_unsupported_versions_rejected<AlterPartitionReassignmentsRequest>();
  expect_unsupported_versions_rejected<AlterPartitionReassignmentsResponse>();
}

}  // namespace
}  // namespace kgroups::protocol
