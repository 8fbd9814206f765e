// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include <stdexcept>

#include "kgroups/partitioner.h"
#include "partitioner/key_partitioner.h"

namespace kgroups {
namespace {

TEST(KeyPartitioner, MatchesTheReferenceHashes) {
  EXPECT_EQ(fnv1a_32(""), 2166136261U);
  EXPECT_EQ(fnv1a_32("a"), 3826002220U);
  EXPECT_EQ(fnv1a_32("foobar"), 3214735720U);
  static_assert(fnv1a_32("a") == 3826002220U);
}

TEST(KeyPartitioner, TakesTheHashModuloThePartitionCount) {
  EXPECT_EQ(partition_for("a", 6), static_cast<int>(3826002220U % 6));
  EXPECT_EQ(partition_for("foobar", 7), static_cast<int>(3214735720U % 7));
  EXPECT_EQ(partition_for("", 1), 0);
}

TEST(KeyPartitioner, HashesBytesAboveSevenBitsUnsigned) {
  // 0xFF must be XORed as 255, not sign-extended.
  const std::uint32_t expected = (2166136261U ^ 0xFFU) * 16777619U;
  EXPECT_EQ(fnv1a_32(std::string_view("\xFF", 1)), expected);
}

TEST(KeyPartitioner, RejectsPartitionCountsBelowOne) {
  EXPECT_THROW((void)partition_for("a", 0), std::invalid_argument);
  EXPECT_THROW((void)partition_for("a", -3), std::invalid_argument);
}

}  // namespace
}  // namespace kgroups

namespace kgroups {
namespace {

TEST(KeyPartitioner, FastModuloEqualsTheRemainderForEveryCount) {
  const std::string_view keys[] = {"", "a", "foobar", "key-000000000042", "\xFF\xFE"};
  for (int partitions = 1; partitions <= 2000; ++partitions) {
    const KeyPartitioner fnv1a(partitions, KeyHash::kFnv1a);
    const KeyPartitioner murmur(partitions, KeyHash::kMurmur2);
    for (const std::string_view key : keys) {
      ASSERT_EQ(fnv1a.partition(key), partition_for(key, partitions)) << partitions;
      ASSERT_EQ(murmur.partition(key), partition_for(key, partitions, "murmur2")) << partitions;
    }
  }
  const KeyPartitioner largest(INT32_MAX, KeyHash::kFnv1a);
  EXPECT_EQ(largest.partition("a"), static_cast<int>(3826002220U % INT32_MAX));
}

TEST(KeyPartitioner, Murmur2MatchesKafkasUtilsTestVectors) {
  EXPECT_EQ(murmur2("21"), -973932308);
  EXPECT_EQ(murmur2("foobar"), -790332482);
  EXPECT_EQ(murmur2("a-little-bit-long-string"), -985981536);
  EXPECT_EQ(murmur2("a-little-bit-longer-string"), -1486304829);
  EXPECT_EQ(murmur2("lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8"), -58897971);
  EXPECT_EQ(murmur2("abc"), 479470107);
  static_assert(murmur2("21") == -973932308);
}

TEST(KeyPartitioner, Murmur2PartitionIsThePositiveHashModuloTheCount) {
  EXPECT_EQ(partition_for("foobar", 6, "murmur2"),
            static_cast<int>((static_cast<std::uint32_t>(-790332482) & 0x7fffffffU) % 6));
  EXPECT_EQ(partition_for("foobar", 6, "fnv1a"), partition_for("foobar", 6));
}

TEST(KeyPartitioner, NamesOnlyItsTwoHashes) {
  EXPECT_EQ(key_hash_named("fnv1a"), KeyHash::kFnv1a);
  EXPECT_EQ(key_hash_named("murmur2"), KeyHash::kMurmur2);
  EXPECT_FALSE(key_hash_named("murmur3").has_value());
  EXPECT_THROW((void)partition_for("a", 6, "crc32"), std::invalid_argument);
  EXPECT_THROW((void)partition_for("a", 0, "murmur2"), std::invalid_argument);
}

}  // namespace
}  // namespace kgroups
