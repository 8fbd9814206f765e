// SPDX-License-Identifier: Apache-2.0
//
// Test helper for the message codecs: encodes a message, decodes it back and checks that
// the result equals the original, that re-encoding gives the same bytes, that the decoder
// consumed every byte, and that every truncated prefix is rejected. Test-only.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <span>
#include <vector>

#include "protocol/wire_reader.h"
#include "protocol/wire_writer.h"

namespace kgroups::protocol {

template <class Message>
std::vector<std::uint8_t> encode_message(const Message& message, std::int16_t version) {
  std::vector<std::uint8_t> bytes;
  WireWriter writer(bytes);
  message.encode(writer, version);
  return bytes;
}

template <class Message>
void expect_round_trip(const Message& message, std::int16_t version) {
  SCOPED_TRACE(testing::Message() << "version " << version);
  const std::vector<std::uint8_t> bytes = encode_message(message, version);
  WireReader reader(bytes);
  auto decoded = Message::decode(reader, version);
  ASSERT_TRUE(decoded.has_value()) << "decode failed with " << static_cast<int>(decoded.error());
  EXPECT_TRUE(*decoded == message) << "decoded message differs from the encoded one";
  EXPECT_EQ(reader.remaining(), 0u) << "decoder left bytes unread";
  EXPECT_EQ(encode_message(*decoded, version), bytes) << "re-encoding changed the bytes";
  for (std::size_t size = 0; size < bytes.size(); ++size) {
    WireReader truncated{std::span(bytes).first(size)};
    auto result = Message::decode(truncated, version);
    EXPECT_FALSE(result.has_value())
        << "a " << size << "-byte prefix of " << bytes.size() << " bytes decoded";
  }
}

// Runs expect_round_trip(make(version), version) for every version the message supports.
template <class Message, class Make>
void expect_round_trip_all_versions(Make&& make) {
  for (std::int16_t version = Message::kMinVersion; version <= Message::kMaxVersion; ++version) {
    expect_round_trip<Message>(make(version), version);
  }
}

// Decoding a version outside the supported range fails with kUnsupportedVersion.
template <class Message>
void expect_unsupported_versions_rejected() {
  const std::vector<std::uint8_t> bytes(64, 0);
  for (const std::int16_t version : {static_cast<std::int16_t>(Message::kMinVersion - 1),
                                     static_cast<std::int16_t>(Message::kMaxVersion + 1)}) {
    WireReader reader(bytes);
    auto result = Message::decode(reader, version);
    ASSERT_FALSE(result.has_value());
    EXPECT_EQ(result.error(), ErrorCode::kUnsupportedVersion);
  }
}

}  // namespace kgroups::protocol
