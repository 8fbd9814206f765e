// SPDX-License-Identifier: Apache-2.0

#include "protocol/wire_reader.h"

#include <gtest/gtest.h>

#include <limits>

#include "protocol/wire_writer.h"

namespace kgroups::protocol {
namespace {

TEST(WireReader, ReadsWhatTheWriterWroteBigEndian) {
  std::vector<std::uint8_t> buffer;
  WireWriter writer(buffer);
  writer.write_int8(-2);
  writer.write_int16(0x0102);
  writer.write_int32(-7);
  writer.write_int64(std::numeric_limits<std::int64_t>::min());
  writer.write_uint32(0xDEADBEEF);
  writer.write_bool(true);
  writer.write_string("abc");
  writer.write_nullable_string(std::nullopt);
  writer.write_bytes(ByteView::of("xy"));
  writer.write_nullable_bytes(std::nullopt);
  writer.write_array_length(-1);
  EXPECT_EQ(buffer[1], 0x01);
  EXPECT_EQ(buffer[2], 0x02);

  WireReader reader(buffer);
  EXPECT_EQ(reader.read_int8(), -2);
  EXPECT_EQ(reader.read_int16(), 0x0102);
  EXPECT_EQ(reader.read_int32(), -7);
  EXPECT_EQ(reader.read_int64(), std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(reader.read_uint32(), 0xDEADBEEFu);
  EXPECT_TRUE(reader.read_bool());
  EXPECT_EQ(reader.read_string(), "abc");
  EXPECT_EQ(reader.read_nullable_string(), std::nullopt);
  EXPECT_EQ(reader.read_bytes(), ByteView::of("xy"));
  EXPECT_EQ(reader.read_nullable_bytes(), std::nullopt);
  EXPECT_EQ(reader.read_array_length(), -1);
  EXPECT_TRUE(reader.ok());
  EXPECT_EQ(reader.remaining(), 0u);
}

TEST(WireReader, ReadPastTheEndFailsStickyAndReturnsZero) {
  const std::vector<std::uint8_t> buffer = {0x00, 0x01, 0x02};
  WireReader reader(buffer);
  EXPECT_EQ(reader.read_int32(), 0);
  EXPECT_FALSE(reader.ok());
  EXPECT_EQ(reader.position(), 0u);
  EXPECT_EQ(reader.read_int8(), 0);  // would fit, but failure is sticky
  EXPECT_FALSE(reader.ok());
}

TEST(WireReader, StringLongerThanTheBufferFails) {
  const std::vector<std::uint8_t> buffer = {0x00, 0x05, 'a', 'b'};
  WireReader reader(buffer);
  EXPECT_EQ(reader.read_string(), "");
  EXPECT_FALSE(reader.ok());
}

TEST(WireReader, NegativeLengthsOtherThanNullFail) {
  const std::vector<std::uint8_t> string_length = {0xFF, 0xFE};
  WireReader strings(string_length);
  strings.read_nullable_string();
  EXPECT_FALSE(strings.ok());
  const std::vector<std::uint8_t> bytes_length = {0x80, 0x00, 0x00, 0x00};
  WireReader bytes(bytes_length);
  bytes.read_bytes();
  EXPECT_FALSE(bytes.ok());
}

TEST(WireReader, ArrayCountThatCannotFitFails) {
  const std::vector<std::uint8_t> huge = {0x7F, 0xFF, 0xFF, 0xFF, 0x00};
  WireReader reader(huge);
  EXPECT_EQ(reader.read_array_length(), 0);
  EXPECT_FALSE(reader.ok());

  const std::vector<std::uint8_t> two_of_four = {0x00, 0x00, 0x00, 0x02, 0, 0, 0, 0};
  WireReader fits(two_of_four);
  EXPECT_EQ(fits.read_array_length(4), 0);  // 2 elements x 4 bytes > 4 bytes left
  EXPECT_FALSE(fits.ok());

  const std::vector<std::uint8_t> minus_two = {0xFF, 0xFF, 0xFF, 0xFE};
  WireReader negative(minus_two);
  EXPECT_EQ(negative.read_array_length(), 0);
  EXPECT_FALSE(negative.ok());
}

TEST(WireReader, ReadArrayStopsAtTheFirstFailure) {
  const std::vector<std::uint8_t> buffer = {0, 0, 0, 3, 0, 1, 0};  // 3 x int16, 1.5 present
  WireReader reader(buffer);
  const auto values = reader.read_array<std::int16_t>([](WireReader& r) { return r.read_int16(); });
  EXPECT_FALSE(reader.ok());
  EXPECT_LE(values.size(), 2u);
}

TEST(WireReader, VarintsRoundTripIncludingExtremes) {
  std::vector<std::uint8_t> buffer;
  WireWriter writer(buffer);
  const std::int32_t ints[] = {0,
                               -1,
                               1,
                               63,
                               -64,
                               64,
                               std::numeric_limits<std::int32_t>::max(),
                               std::numeric_limits<std::int32_t>::min()};
  const std::int64_t longs[] = {0, -1, 300, std::numeric_limits<std::int64_t>::max(),
                                std::numeric_limits<std::int64_t>::min()};
  for (auto v : ints) writer.write_varint(v);
  for (auto v : longs) writer.write_varlong(v);
  writer.write_unsigned_varint(0xFFFFFFFF);
  writer.write_compact_string("hi");
  writer.write_compact_nullable_string(std::nullopt);
  writer.write_compact_array_length(3);
  WireReader reader(buffer);
  for (auto v : ints) EXPECT_EQ(reader.read_varint(), v);
  for (auto v : longs) EXPECT_EQ(reader.read_varlong(), v);
  EXPECT_EQ(reader.read_unsigned_varint(), 0xFFFFFFFFu);
  EXPECT_EQ(reader.read_compact_string(), "hi");
  EXPECT_EQ(reader.read_compact_nullable_string(), std::nullopt);
  EXPECT_TRUE(reader.ok());
  EXPECT_EQ(reader.read_compact_array_length(), 0);  // 3 elements cannot fit in 0 bytes
  EXPECT_FALSE(reader.ok());
}

TEST(WireReader, ZigZagEncodingMatchesKafka) {
  std::vector<std::uint8_t> buffer;
  WireWriter writer(buffer);
  writer.write_varint(-1);   // zigzag 1
  writer.write_varint(1);    // zigzag 2
  writer.write_varint(-65);  // zigzag 129 = 0x81 0x01
  EXPECT_EQ(buffer, (std::vector<std::uint8_t>{0x01, 0x02, 0x81, 0x01}));
}

TEST(WireReader, OverlongVarintFails) {
  const std::vector<std::uint8_t> six_bytes = {0x80, 0x80, 0x80, 0x80, 0x80, 0x01};
  WireReader reader(six_bytes);
  reader.read_unsigned_varint();
  EXPECT_FALSE(reader.ok());
  const std::vector<std::uint8_t> unterminated = {0x80, 0x80};
  WireReader short_reader(unterminated);
  short_reader.read_varlong();
  EXPECT_FALSE(short_reader.ok());
}

TEST(WireReader, TaggedFieldsAreSkipped) {
  const std::vector<std::uint8_t> buffer = {0x02, 0x00, 0x01, 0xAA, 0x05, 0x02, 0xBB, 0xCC, 0x7E};
  WireReader reader(buffer);
  reader.skip_tagged_fields();
  EXPECT_TRUE(reader.ok());
  EXPECT_EQ(reader.read_int8(), 0x7E);
  const std::vector<std::uint8_t> truncated = {0x01, 0x00, 0x09, 0xAA};
  WireReader bad(truncated);
  bad.skip_tagged_fields();
  EXPECT_FALSE(bad.ok());
}

TEST(WireWriter, ReservedSizePrefixIsPatched) {
  std::vector<std::uint8_t> buffer = {0xEE};  // earlier content is kept
  WireWriter writer(buffer);
  const std::size_t at = writer.reserve_int32();
  writer.write_int16(7);
  writer.patch_int32(at, static_cast<std::int32_t>(writer.size() - at - 4));
  EXPECT_EQ(buffer, (std::vector<std::uint8_t>{0xEE, 0, 0, 0, 2, 0, 7}));
}

}  // namespace
}  // namespace kgroups::protocol
