// SPDX-License-Identifier: Apache-2.0
//
// DeleteAcls v0-3: each filter's pattern type filter is on the wire from v1 (a v0 filter
// decodes as LITERAL), and so is each deleted ACL's pattern type; v2 is flexible.

#include "protocol/messages/delete_acls.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "protocol/messages/round_trip.h"

namespace kgroups::protocol {
namespace {

using Bytes = std::vector<std::uint8_t>;

TEST(DeleteAcls, AV0FilterDecodesAsLiteral) {
  // 1 filter: ANY type, null name, null principal, null host, ANY operation, ANY permission.
  const Bytes v0 = {0, 0, 0, 1, 1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 1, 1};
  WireReader reader(v0);
  const auto request = DeleteAclsRequest::decode(reader, 0);
  ASSERT_TRUE(request.has_value());
  ASSERT_EQ(request->filters.size(), 1U);
  EXPECT_EQ(request->filters[0].pattern_type_filter, 3);
  EXPECT_FALSE(request->filters[0].resource_name_filter.has_value());

  DeleteAclsRequest any = *request;
  any.filters[0].pattern_type_filter = 1;
  EXPECT_EQ(encode_message(any, 1),
            (Bytes{0, 0, 0, 1, 1, 0xff, 0xff, 1, 0xff, 0xff, 0xff, 0xff, 1, 1}));
  EXPECT_EQ(encode_message(any, 2), (Bytes{2, 1, 0, 1, 0, 0, 1, 1, 0, 0}));
}

TEST(DeleteAcls, DeletedAclsCarryTheirPatternTypeFromV1) {
  DeleteAclsResponse response;
  response.filter_results = {{.matching_acls = {{.resource_type = 2,
                                                 .resource_name = "t",
                                                 .pattern_type = 3,
                                                 .principal = "User:a",
                                                 .host = "*",
                                                 .operation = 3,
                                                 .permission_type = 3}}}};
  EXPECT_EQ(encode_message(response, 1).size(), encode_message(response, 0).size() + 1);
  for (std::int16_t version = 0; version <= 3; ++version) expect_round_trip(response, version);
}

}  // namespace
}  // namespace kgroups::protocol
