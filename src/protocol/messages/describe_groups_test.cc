// SPDX-License-Identifier: Apache-2.0

#include "protocol/messages/describe_groups.h"

#include <gtest/gtest.h>

#include "protocol/messages/init_producer_id.h"
#include "protocol/messages/list_groups.h"
#include "protocol/messages/round_trip.h"

namespace kgroups::protocol {
namespace {

TEST(DescribeGroups, RequestRoundTripsInEveryVersion) {
  expect_round_trip_all_versions<DescribeGroupsRequest>([](std::int16_t version) {
    DescribeGroupsRequest request;
    request.groups = {"billing", "audit"};
    if (version >= 3) request.include_authorized_operations = true;
    return request;
  });
  expect_unsupported_versions_rejected<DescribeGroupsRequest>();
}

TEST(DescribeGroups, ResponseRoundTripsInEveryVersion) {
  expect_round_trip_all_versions<DescribeGroupsResponse>([](std::int16_t version) {
    DescribeGroupsResponse response;
    if (version >= 1) response.throttle_time_ms = 1;
    DescribeGroupsResponse::Member member;
    member.member_id = "m-1";
    if (version >= 4) member.group_instance_id = "i-1";
    member.client_id = "rdkafka";
    member.client_host = "/127.0.0.1";
    member.member_metadata = {0, 1};
    member.member_assignment = {0, 1, 2};
    DescribeGroupsResponse::Group group;
    group.group_id = "billing";
    group.group_state = "Stable";
    group.protocol_type = "consumer";
    group.protocol_data = "range";
    group.members = {member};
    if (version >= 3) group.authorized_operations = 0;
    DescribeGroupsResponse::Group dead;
    dead.error_code = ErrorCode::kGroupIdNotFound;
    dead.group_id = "gone";
    dead.group_state = "Dead";
    response.groups = {group, dead};
    return response;
  });
  expect_unsupported_versions_rejected<DescribeGroupsResponse>();
}

TEST(ListGroups, RequestAndResponseRoundTripInEveryVersion) {
  expect_round_trip_all_versions<ListGroupsRequest>(
      [](std::int16_t) { return ListGroupsRequest{}; });
  expect_round_trip_all_versions<ListGroupsResponse>([](std::int16_t version) {
    ListGroupsResponse response;
    if (version >= 1) response.throttle_time_ms = 1;
    response.groups = {{"billing", "consumer"}, {"audit", "consumer"}};
    return response;
  });
  expect_unsupported_versions_rejected<ListGroupsRequest>();
  expect_unsupported_versions_rejected<ListGroupsResponse>();
}

TEST(InitProducerId, RequestAndResponseRoundTripInEveryVersion) {
  expect_round_trip_all_versions<InitProducerIdRequest>([](std::int16_t version) {
    InitProducerIdRequest request;
    if (version == 1) request.transactional_id = "txn";
    request.transaction_timeout_ms = 60000;
    return request;
  });
  expect_round_trip_all_versions<InitProducerIdResponse>([](std::int16_t) {
    return InitProducerIdResponse{0, ErrorCode::kNone, 1000, 0};
  });
  expect_unsupported_versions_rejected<InitProducerIdRequest>();
  expect_unsupported_versions_rejected<InitProducerIdResponse>();
}

}  // namespace
}  // namespace kgroups::protocol
