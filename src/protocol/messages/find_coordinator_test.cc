// SPDX-License-Identifier: Apache-2.0

#include "protocol/messages/find_coordinator.h"

#include <gtest/gtest.h>

#include "protocol/messages/round_trip.h"

namespace kgroups::protocol {
namespace {

TEST(FindCoordinator, RequestRoundTripsInEveryVersion) {
  expect_round_trip_all_versions<FindCoordinatorRequest>([](std::int16_t version) {
    FindCoordinatorRequest request;
    if (version <= 3) request.key = "billing";
    if (version >= 4) request.coordinator_keys = {"billing", "orders"};
    if (version >= 1) request.key_type = 1;
    return request;
  });
  expect_unsupported_versions_rejected<FindCoordinatorRequest>();
}

TEST(FindCoordinator, ResponseRoundTripsInEveryVersion) {
  expect_round_trip_all_versions<FindCoordinatorResponse>([](std::int16_t version) {
    FindCoordinatorResponse response;
    if (version >= 1) response.throttle_time_ms = 1;
    if (version >= 1 && version <= 3) response.error_message = "none";
    if (version <= 3) {
      response.node_id = 1;
      response.host = "127.0.0.1";
      response.port = 9092;
    } else {
      response.coordinators = {
          {.key = "billing", .node_id = 1, .host = "127.0.0.1", .port = 9092},
          {.key = "", .error_code = ErrorCode::kInvalidRequest, .error_message = "empty key"}};
    }
    return response;
  });
  expect_unsupported_versions_rejected<FindCoordinatorResponse>();
}

TEST(FindCoordinator, V0ResponseIsErrorNodeHostPort) {
  FindCoordinatorResponse response;
  response.error_code = ErrorCode::kCoordinatorNotAvailable;
  response.node_id = 1;
  response.host = "h";
  response.port = 2;
  EXPECT_EQ(encode_message(response, 0),
            (std::vector<std::uint8_t>{0, 15, 0, 0, 0, 1, 0, 1, 'h', 0, 0, 0, 2}));
}

}  // namespace
}  // namespace kgroups::protocol
