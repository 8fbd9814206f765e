// SPDX-License-Identifier: Apache-2.0

#include "protocol/messages/api_versions.h"

#include <gtest/gtest.h>

#include "protocol/messages/round_trip.h"

namespace kgroups::protocol {
namespace {

TEST(ApiVersions, RequestRoundTripsInEveryVersion) {
  expect_round_trip_all_versions<ApiVersionsRequest>([](std::int16_t version) {
    ApiVersionsRequest request;
    if (version >= 3) {
      request.client_software_name = "librdkafka";
      request.client_software_version = "2.0.2";
    }
    return request;
  });
  expect_unsupported_versions_rejected<ApiVersionsRequest>();
}

TEST(ApiVersions, ResponseRoundTripsInEveryVersion) {
  expect_round_trip_all_versions<ApiVersionsResponse>([](std::int16_t version) {
    ApiVersionsResponse response;
    response.api_keys = {{0, 0, 3}, {1, 4, 4}, {18, 0, 2}};
    if (version >= 1) response.throttle_time_ms = 7;
    return response;
  });
  expect_unsupported_versions_rejected<ApiVersionsResponse>();
}

TEST(ApiVersions, UnsupportedVersionAnswerHasKafkasV0Layout) {
  std::vector<std::uint8_t> bytes;
  WireWriter writer(bytes);
  ApiVersionsResponse response;
  response.error_code = ErrorCode::kUnsupportedVersion;
  response.api_keys = {{18, 0, 2}};
  response.encode(writer, 0);
  // error_code 35, one entry {18, 0, 2}, no throttle time.
  EXPECT_EQ(bytes, (std::vector<std::uint8_t>{0x00, 0x23, 0, 0, 0, 1, 0x00, 0x12, 0, 0, 0, 2}));
}

}  // namespace
}  // namespace kgroups::protocol
