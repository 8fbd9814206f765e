// SPDX-License-Identifier: Apache-2.0

#include "protocol/messages/list_offsets.h"

#include <gtest/gtest.h>

#include "protocol/messages/round_trip.h"

namespace kgroups::protocol {
namespace {

TEST(ListOffsets, RequestRoundTripsInEveryVersion) {
  expect_round_trip_all_versions<ListOffsetsRequest>([](std::int16_t version) {
    ListOffsetsRequest request;
    if (version >= 2) request.isolation_level = 1;
    ListOffsetsRequest::Partition latest;
    latest.partition_index = 0;
    latest.timestamp = kListOffsetsLatestTimestamp;
    if (version == 0) latest.max_num_offsets = 3;
    if (version >= 4) latest.current_leader_epoch = 2;
    ListOffsetsRequest::Partition earliest = latest;
    earliest.partition_index = 1;
    earliest.timestamp = kListOffsetsEarliestTimestamp;
    request.topics = {{"orders", {latest, earliest}}};
    return request;
  });
  expect_unsupported_versions_rejected<ListOffsetsRequest>();
}

TEST(ListOffsets, ResponseRoundTripsInEveryVersion) {
  expect_round_trip_all_versions<ListOffsetsResponse>([](std::int16_t version) {
    ListOffsetsResponse response;
    if (version >= 2) response.throttle_time_ms = 1;
    ListOffsetsResponse::Partition partition;
    partition.partition_index = 4;
    if (version == 0) {
      partition.old_style_offsets = {42, 0};
    } else {
      partition.timestamp = -1;
      partition.offset = 42;
    }
    if (version >= 4) partition.leader_epoch = 0;
    ListOffsetsResponse::Partition missing;
    missing.partition_index = 9;
    missing.error_code = ErrorCode::kUnknownTopicOrPartition;
    response.topics = {{"orders", {partition, missing}}};
    return response;
  });
  expect_unsupported_versions_rejected<ListOffsetsResponse>();
}

}  // namespace
}  // namespace kgroups::protocol
