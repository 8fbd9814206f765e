// SPDX-License-Identifier: Apache-2.0
//
// DescribeAcls v0-3: the filter's bytes per version (v1 adds the pattern type filter, v2 is
// flexible), a v0 filter decoding as LITERAL, and the response's resources with their pattern
// type from v1.

#include "protocol/messages/describe_acls.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "protocol/messages/round_trip.h"

namespace kgroups::protocol {
namespace {

using Bytes = std::vector<std::uint8_t>;

// TOPIC, name "t", PREFIXED, any principal, host "*", READ, ALLOW.
DescribeAclsRequest prefixed_topic_filter() {
  DescribeAclsRequest request;
  request.resource_type_filter = 2;
  request.resource_name_filter = "t";
  request.pattern_type_filter = 4;
  request.host_filter = "*";
  request.operation = 3;
  request.permission_type = 3;
  return request;
}

TEST(DescribeAcls, ThePatternTypeFilterIsOnTheWireFromV1) {
  const DescribeAclsRequest request = prefixed_topic_filter();
  EXPECT_EQ(encode_message(request, 0), (Bytes{2, 0, 1, 't', 0xff, 0xff, 0, 1, '*', 3, 3}));
  EXPECT_EQ(encode_message(request, 1), (Bytes{2, 0, 1, 't', 4, 0xff, 0xff, 0, 1, '*', 3, 3}));
  // v2: compact strings (null is 0) and the tagged-field section.
  EXPECT_EQ(encode_message(request, 2), (Bytes{2, 2, 't', 4, 0, 2, '*', 3, 3, 0}));
}

TEST(DescribeAcls, AV0FilterDecodesAsLiteral) {
  const Bytes bytes = {2, 0, 1, 't', 0xff, 0xff, 0, 1, '*', 3, 3};
  WireReader reader(bytes);
  const auto request = DescribeAclsRequest::decode(reader, 0);
  ASSERT_TRUE(request.has_value());
  EXPECT_EQ(request->pattern_type_filter, 3);
  EXPECT_EQ(request->resource_name_filter, "t");
  EXPECT_FALSE(request->principal_filter.has_value());
}

TEST(DescribeAcls, ResponseResourcesCarryTheirPatternTypeFromV1) {
  DescribeAclsResponse response;
  response.resources = {
      {.resource_type = 2,
       .resource_name = "t",
       .pattern_type = 3,
       .acls = {{.principal = "User:a", .host = "*", .operation = 3, .permission_type = 3}}}};
  const Bytes v0 = encode_message(response, 0);
  const Bytes v1 = encode_message(response, 1);
  EXPECT_EQ(v1.size(), v0.size() + 1);
  // throttle_time_ms, error_code, null error_message, 1 resource: TOPIC, "t", [v1: LITERAL].
  const Bytes head = {0, 0, 0, 0, 0, 0, 0xff, 0xff, 0, 0, 0, 1, 2, 0, 1, 't'};
  EXPECT_TRUE(std::equal(head.begin(), head.end(), v0.begin()));
  EXPECT_EQ(v1[head.size()], 3);
  for (std::int16_t version = 0; version <= 3; ++version) expect_round_trip(response, version);
}

}  // namespace
}  // namespace kgroups::protocol
