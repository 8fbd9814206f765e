// SPDX-License-Identifier: Apache-2.0

#include "protocol/frame.h"

#include <gtest/gtest.h>

#include "protocol/messages/heartbeat.h"

namespace kgroups::protocol {
namespace {

TEST(Frame, RequestFrameIsSizePrefixedHeaderAndBody) {
  std::vector<std::uint8_t> out = {0xAA};  // appended after existing content
  const HeartbeatRequest request{"g", 2, "m", std::nullopt};
  encode_request_frame(out, RequestHeader{ApiKey::kHeartbeat, 1, 9, "c"}, request);
  const std::vector<std::uint8_t> expected = {
      0xAA, 0,  0,   0, 21,                       // size: 11 header + 10 body bytes
      0,    12, 0,   1, 0,  0, 0, 9, 0, 1,  'c',  // key 12, v1, correlation 9, client "c"
      0,    1,  'g', 0, 0,  0, 2, 0, 1, 'm'};     // group "g", generation 2, member "m"
  EXPECT_EQ(out, expected);
}

TEST(Frame, ResponseFrameIsSizePrefixedCorrelationAndBody) {
  std::vector<std::uint8_t> out;
  HeartbeatResponse response;
  response.error_code = ErrorCode::kRebalanceInProgress;
  encode_response_frame(out, 7, response, 1);
  EXPECT_EQ(out, (std::vector<std::uint8_t>{0, 0, 0, 10, 0, 0, 0, 7, 0, 0, 0, 0, 0, 27}));
}

}  // namespace
}  // namespace kgroups::protocol
