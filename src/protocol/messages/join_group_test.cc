// SPDX-License-Identifier: Apache-2.0

#include "protocol/messages/join_group.h"

#include <gtest/gtest.h>

#include "protocol/messages/round_trip.h"

namespace kgroups::protocol {
namespace {

TEST(JoinGroup, RequestRoundTripsInEveryVersion) {
  const std::vector<std::uint8_t> subscription = {0, 1,   0,    0,    0,    1,   0,
                                                  1, 't', 0xFF, 0xFF, 0xFF, 0xFF};
  expect_round_trip_all_versions<JoinGroupRequest>([&](std::int16_t version) {
    JoinGroupRequest request;
    request.group_id = "billing";
    request.session_timeout_ms = 10000;
    if (version >= 1) request.rebalance_timeout_ms = 300000;
    request.member_id = version % 2 == 0 ? "" : "rdkafka-1234";
    if (version >= 5) request.group_instance_id = "instance-1";
    request.protocol_type = "consumer";
    request.protocols = {{"range", ByteView(subscription)}, {"roundrobin", ByteView{}}};
    return request;
  });
  expect_unsupported_versions_rejected<JoinGroupRequest>();
}

TEST(JoinGroup, ResponseRoundTripsInEveryVersion) {
  expect_round_trip_all_versions<JoinGroupResponse>([](std::int16_t version) {
    JoinGroupResponse response;
    if (version >= 2) response.throttle_time_ms = 1;
    response.generation_id = 3;
    response.protocol_name = "range";
    response.leader = "m-1";
    response.member_id = "m-1";
    JoinGroupResponse::Member first{"m-1", std::nullopt, {1, 2, 3}};
    JoinGroupResponse::Member second{"m-2", std::nullopt, {}};
    if (version >= 5) first.group_instance_id = "i-1";
    response.members = {first, second};
    return response;
  });
  expect_unsupported_versions_rejected<JoinGroupResponse>();
}

TEST(JoinGroup, MemberIdRequiredAnswerRoundTrips) {
  JoinGroupResponse response;
  response.error_code = ErrorCode::kMemberIdRequired;
  response.member_id = "client-0a1b";
  expect_round_trip(response, 4);
}

}  // namespace
}  // namespace kgroups::protocol
