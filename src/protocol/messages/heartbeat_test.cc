// SPDX-License-Identifier: Apache-2.0

#include "protocol/messages/heartbeat.h"

#include <gtest/gtest.h>

#include "protocol/messages/leave_group.h"
#include "protocol/messages/round_trip.h"

namespace kgroups::protocol {
namespace {

TEST(Heartbeat, RequestRoundTripsInEveryVersion) {
  expect_round_trip_all_versions<HeartbeatRequest>([](std::int16_t version) {
    HeartbeatRequest request;
    request.group_id = "billing";
    request.generation_id = 7;
    request.member_id = "m-1";
    if (version >= 3) request.group_instance_id = "i-1";
    return request;
  });
  expect_unsupported_versions_rejected<HeartbeatRequest>();
}

TEST(Heartbeat, ResponseRoundTripsInEveryVersion) {
  expect_round_trip_all_versions<HeartbeatResponse>([](std::int16_t version) {
    HeartbeatResponse response;
    if (version >= 1) response.throttle_time_ms = 2;
    response.error_code = ErrorCode::kIllegalGeneration;
    return response;
  });
  expect_unsupported_versions_rejected<HeartbeatResponse>();
}

TEST(LeaveGroup, RequestAndResponseRoundTripInEveryVersion) {
  expect_round_trip_all_versions<LeaveGroupRequest>([](std::int16_t version) {
    if (version <= 2) return LeaveGroupRequest{.group_id = "billing", .member_id = "m-2"};
    LeaveGroupRequest request{.group_id = "billing"};
    request.members = {{.member_id = "m-2"}, {.member_id = "", .group_instance_id = "host-1"}};
    if (version >= 5) request.members[0].reason = "shutting down";
    return request;
  });
  expect_round_trip_all_versions<LeaveGroupResponse>([](std::int16_t version) {
    LeaveGroupResponse response;
    if (version >= 1) response.throttle_time_ms = 3;
    response.error_code = ErrorCode::kUnknownMemberId;
    if (version >= 3) {
      response.members = {{.member_id = "m-2", .error_code = ErrorCode::kUnknownMemberId},
                          {.member_id = "m-3", .group_instance_id = "host-1"}};
    }
    return response;
  });
  expect_unsupported_versions_rejected<LeaveGroupRequest>();
  expect_unsupported_versions_rejected<LeaveGroupResponse>();
}

}  // namespace
}  // namespace kgroups::protocol
