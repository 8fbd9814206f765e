// SPDX-License-Identifier: Apache-2.0
//
// The partition of __consumer_offsets a group lives in, against hashes computed by hand
// from Java's rule h = 31 * h + c over UTF-16 code units.
#include "broker/groups/offsets_partition.h"

#include <gtest/gtest.h>

namespace kgroups::broker {
namespace {

TEST(OffsetsPartition, HashesAsciiAsJavaDoes) {
  EXPECT_EQ(java_string_hash(""), 0);
  EXPECT_EQ(java_string_hash("a"), 97);
  // 'a' * 31 + 'b' = 97 * 31 + 98 = 3105.
  EXPECT_EQ(java_string_hash("ab"), 3105);
  EXPECT_EQ(offsets_partition_for("ab", 50), 5);  // 3105 % 50
  EXPECT_EQ(offsets_partition_for("a", 50), 47);  // 97 % 50
  EXPECT_EQ(java_string_hash("my-consumer-group"), 1513705513);
  EXPECT_EQ(offsets_partition_for("my-consumer-group", 50), 13);
}

TEST(OffsetsPartition, NegativeHashesTakeTheirAbsoluteValue) {
  EXPECT_EQ(java_string_hash("abcdefghij"), -634317659);
  EXPECT_EQ(offsets_partition_for("abcdefghij", 50), 9);  // 634317659 % 50
  // A string whose hash is Integer.MIN_VALUE: Kafka's Utils.abs makes it 0.
  EXPECT_EQ(java_string_hash("polygenelubricants"), -2147483647 - 1);
  EXPECT_EQ(offsets_partition_for("polygenelubricants", 50), 0);
}

TEST(OffsetsPartition, HashesUtf16CodeUnitsNotBytes) {
  EXPECT_EQ(java_string_hash("\xC3\xA9"), 0xE9);  // U+00E9 is one unit, 233
  // U+1F600 is the pair D83D DE00: 0xD83D * 31 + 0xDE00 = 1772899.
  EXPECT_EQ(java_string_hash("\xF0\x9F\x98\x80"), 1772899);
  EXPECT_EQ(offsets_partition_for("\xF0\x9F\x98\x80", 50), 49);
  // A byte that starts no UTF-8 sequence counts as U+FFFD.
  EXPECT_EQ(java_string_hash("\xFF"), 0xFFFD);
}

TEST(OffsetsPartition, OnePartitionHoldsEveryGroup) {
  EXPECT_EQ(offsets_partition_for("anything", 1), 0);
}

}  // namespace
}  // namespace kgroups::broker
