// SPDX-License-Identifier: Apache-2.0
#include "protocol/wire_writer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace kgroups::protocol {
namespace {

TEST(WireWriter, AStringLongerThanAnInt16CanSayFailsTheWriterInsteadOfWrapping) {
  std::vector<std::uint8_t> out;
  WireWriter writer(out);
  writer.write_string(std::string(32767, 'a'));
  EXPECT_TRUE(writer.ok());
  EXPECT_EQ(out.size(), 2u + 32767u);
  writer.write_string(std::string(32768, 'b'));  // would be written as length -32768
  EXPECT_FALSE(writer.ok());
  EXPECT_EQ(out.size(), 2u + 32767u + 2u);  // a zero length, and none of the characters
  writer.write_int8(1);
  EXPECT_FALSE(writer.ok());  // sticky
}

TEST(WireWriter, NullableAndCompactStringsAreCheckedToo) {
  std::vector<std::uint8_t> out;
  WireWriter nullable(out);
  nullable.write_nullable_string(std::string(40000, 'x'));
  EXPECT_FALSE(nullable.ok());
  std::vector<std::uint8_t> compact_out;
  WireWriter compact(compact_out);
  compact.write_compact_string(std::string(40000, 'x'));  // varint lengths are fine here
  EXPECT_TRUE(compact.ok());
  EXPECT_EQ(compact_out.size(), 3u + 40000u);
}

TEST(WireWriter, ArraysAndBytesWithinTheirWidthStayOk) {
  std::vector<std::uint8_t> out;
  WireWriter writer(out);
  writer.write_array(std::vector<int>{1, 2, 3},
                     [](WireWriter& w, int value) { w.write_int32(value); });
  writer.write_bytes(std::vector<std::uint8_t>(100000, 7));
  EXPECT_TRUE(writer.ok());
  EXPECT_EQ(out.size(), 4u + 12u + 4u + 100000u);
}

}  // namespace
}  // namespace kgroups::protocol
