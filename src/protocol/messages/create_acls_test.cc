// SPDX-License-Identifier: Apache-2.0
//
// CreateAcls v0-3: each creation's pattern type is on the wire from v1 (a v0 creation decodes
// as LITERAL), v2 is flexible; the response is one result per creation.

#include "protocol/messages/create_acls.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <vector>

#include "protocol/messages/round_trip.h"

namespace kgroups::protocol {
namespace {

using Bytes = std::vector<std::uint8_t>;

// GROUP "g" PREFIXED, User:a from *, READ, DENY.
CreateAclsRequest deny_reads_of_group_prefix() {
  CreateAclsRequest request;
  request.creations = {{.resource_type = 3,
                        .resource_name = "g",
                        .resource_pattern_type = 4,
                        .principal = "User:a",
                        .host = "*",
                        .operation = 3,
                        .permission_type = 2}};
  return request;
}

constexpr std::array<std::uint8_t, 6> kPrincipal = {'U', 's', 'e', 'r', ':', 'a'};

Bytes creation_bytes(std::int16_t version) {
  const bool flexible = version >= 2;
  Bytes bytes = flexible ? Bytes{2, 3, 2, 'g'} : Bytes{0, 0, 0, 1, 3, 0, 1, 'g'};
  if (version >= 1) bytes.push_back(4);
  bytes.insert(bytes.end(), flexible ? std::initializer_list<std::uint8_t>{7}
                                     : std::initializer_list<std::uint8_t>{0, 6});
  bytes.insert(bytes.end(), kPrincipal.begin(), kPrincipal.end());
  bytes.insert(bytes.end(), flexible ? std::initializer_list<std::uint8_t>{2, '*', 3, 2, 0, 0}
                                     : std::initializer_list<std::uint8_t>{0, 1, '*', 3, 2});
  return bytes;
}

TEST(CreateAcls, ThePatternTypeIsOnTheWireFromV1) {
  for (std::int16_t version = 0; version <= 3; ++version) {
    SCOPED_TRACE(version);
    if (version == 0) {
      CreateAclsRequest literal = deny_reads_of_group_prefix();
      literal.creations[0].resource_pattern_type = 3;
      EXPECT_EQ(encode_message(literal, 0), creation_bytes(0));
      continue;
    }
    EXPECT_EQ(encode_message(deny_reads_of_group_prefix(), version), creation_bytes(version));
  }
}

TEST(CreateAcls, AV0CreationDecodesAsLiteral) {
  const Bytes bytes = creation_bytes(0);
  WireReader reader(bytes);
  const auto request = CreateAclsRequest::decode(reader, 0);
  ASSERT_TRUE(request.has_value());
  ASSERT_EQ(request->creations.size(), 1U);
  EXPECT_EQ(request->creations[0].resource_pattern_type, 3);
  EXPECT_EQ(request->creations[0].principal, "User:a");
}

TEST(CreateAcls, ResponseHasOneResultPerCreation) {
  CreateAclsResponse response;
  response.results = {{}, {.error_code = ErrorCode::kInvalidRequest, .error_message = "x"}};
  EXPECT_EQ(encode_message(response, 2), (Bytes{0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 42, 2, 'x', 0, 0}));
  for (std::int16_t version = 0; version <= 3; ++version) expect_round_trip(response, version);
}

}  // namespace
}  // namespace kgroups::protocol
