// SPDX-License-Identifier: Apache-2.0

#include "protocol/request_header.h"

#include <gtest/gtest.h>

namespace kgroups::protocol {
namespace {

TEST(RequestHeader, V1RoundTrips) {
  const RequestHeader header{ApiKey::kMetadata, 4, 0x01020304, "rdkafka"};
  std::vector<std::uint8_t> bytes;
  WireWriter writer(bytes);
  encode_request_header(writer, header);
  EXPECT_EQ(bytes, (std::vector<std::uint8_t>{0, 3, 0, 4, 1, 2, 3, 4, 0, 7, 'r', 'd', 'k', 'a', 'f',
                                              'k', 'a'}));
  WireReader reader(bytes);
  auto decoded = decode_request_header(reader);
  ASSERT_TRUE(decoded);
  EXPECT_EQ(*decoded, header);
  EXPECT_EQ(reader.remaining(), 0u);
}

TEST(RequestHeader, NullClientIdRoundTrips) {
  const RequestHeader header{ApiKey::kProduce, 3, -5, std::nullopt};
  std::vector<std::uint8_t> bytes;
  WireWriter writer(bytes);
  encode_request_header(writer, header);
  WireReader reader(bytes);
  auto decoded = decode_request_header(reader);
  ASSERT_TRUE(decoded);
  EXPECT_EQ(*decoded, header);
}

TEST(RequestHeader, FlexibleVersionUsesHeaderV2WithTaggedFields) {
  EXPECT_TRUE(is_flexible_request(ApiKey::kApiVersions, 3));
  EXPECT_FALSE(is_flexible_request(ApiKey::kApiVersions, 2));
  EXPECT_TRUE(is_flexible_request(ApiKey::kMetadata, 9));
  EXPECT_FALSE(is_flexible_request(static_cast<ApiKey>(999), 50));
  // ApiVersions v3, correlation 1, client "c", one tagged field (tag 0, 1 byte), then body.
  const std::vector<std::uint8_t> bytes = {0, 18, 0, 3, 0, 0, 0, 1, 0, 1, 'c', 1, 0, 1, 0xAB, 0x42};
  WireReader reader(bytes);
  auto decoded = decode_request_header(reader);
  ASSERT_TRUE(decoded);
  EXPECT_EQ(decoded->api_key, ApiKey::kApiVersions);
  EXPECT_EQ(decoded->api_version, 3);
  EXPECT_EQ(decoded->correlation_id, 1);
  EXPECT_EQ(reader.read_int8(), 0x42);
}

TEST(RequestHeader, UnknownKeyStillYieldsKeyVersionAndCorrelation) {
  const std::vector<std::uint8_t> bytes = {0x03, 0xE7, 0, 9, 0, 0, 0, 7, 0xFF, 0xFF};
  WireReader reader(bytes);
  auto decoded = decode_request_header(reader);
  ASSERT_TRUE(decoded);
  EXPECT_EQ(static_cast<int>(decoded->api_key), 999);
  EXPECT_EQ(decoded->correlation_id, 7);
  EXPECT_FALSE(decoded->client_id.has_value());
}

TEST(RequestHeader, TruncatedHeaderIsInvalidRequest) {
  const std::vector<std::uint8_t> bytes = {0, 3, 0, 4, 0, 0, 0, 1, 0, 9, 'x'};
  for (std::size_t size = 0; size <= bytes.size(); ++size) {
    WireReader reader{std::span(bytes).first(size)};
    auto decoded = decode_request_header(reader);
    ASSERT_FALSE(decoded) << size;
    EXPECT_EQ(decoded.error(), ErrorCode::kInvalidRequest);
  }
}

TEST(ResponseHeader, IsTheCorrelationIdOnly) {
  std::vector<std::uint8_t> bytes;
  WireWriter writer(bytes);
  encode_response_header(writer, 258);
  EXPECT_EQ(bytes, (std::vector<std::uint8_t>{0, 0, 1, 2}));
}

TEST(ErrorCodeAndApiKey, NamesAreKafkas) {
  EXPECT_EQ(error_name(ErrorCode::kUnknownMemberId), "UNKNOWN_MEMBER_ID");
  EXPECT_EQ(error_name(ErrorCode::kUnsupportedVersion), "UNSUPPORTED_VERSION");
  EXPECT_EQ(error_name(static_cast<ErrorCode>(30000)), "UNKNOWN_ERROR_CODE");
  EXPECT_EQ(static_cast<int>(ErrorCode::kMemberIdRequired), 79);
  EXPECT_EQ(api_name(ApiKey::kJoinGroup), "JoinGroup");
  EXPECT_EQ(api_name(static_cast<ApiKey>(999)), "Unknown");
}

}  // namespace
}  // namespace kgroups::protocol
