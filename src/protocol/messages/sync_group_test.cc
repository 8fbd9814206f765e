// SPDX-License-Identifier: Apache-2.0

#include "protocol/messages/sync_group.h"

#include <gtest/gtest.h>

#include "protocol/messages/round_trip.h"

namespace kgroups::protocol {
namespace {

TEST(SyncGroup, RequestRoundTripsInEveryVersion) {
  const std::vector<std::uint8_t> assignment = {0, 1, 0, 0, 0, 0};
  expect_round_trip_all_versions<SyncGroupRequest>([&](std::int16_t version) {
    SyncGroupRequest request;
    request.group_id = "billing";
    request.generation_id = 4;
    request.member_id = "m-1";
    if (version >= 3) request.group_instance_id = "i-1";
    request.assignments = {{"m-1", ByteView(assignment)}, {"m-2", ByteView{}}};
    return request;
  });
  expect_unsupported_versions_rejected<SyncGroupRequest>();
}

TEST(SyncGroup, ResponseRoundTripsInEveryVersion) {
  expect_round_trip_all_versions<SyncGroupResponse>([](std::int16_t version) {
    SyncGroupResponse response;
    if (version >= 1) response.throttle_time_ms = 6;
    response.error_code = ErrorCode::kRebalanceInProgress;
    response.assignment = {9, 8, 7};
    return response;
  });
  expect_unsupported_versions_rejected<SyncGroupResponse>();
}

}  // namespace
}  // namespace kgroups::protocol
