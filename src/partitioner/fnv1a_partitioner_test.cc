// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include <stdexcept>

#include "kgroups/partitioner.h"
#include "partitioner/fnv1a_partitioner.h"

namespace kgroups {
namespace {

TEST(Fnv1aPartitioner, MatchesTheReferenceHashes) {
  EXPECT_EQ(fnv1a_32(""), 2166136261U);
  EXPECT_EQ(fnv1a_32("a"), 3826002220U);
  EXPECT_EQ(fnv1a_32("foobar"), 3214735720U);
  static_assert(fnv1a_32("a") == 3826002220U);
}

TEST(Fnv1aPartitioner, TakesTheHashModuloThePartitionCount) {
  EXPECT_EQ(partition_for("a", 6), static_cast<int>(3826002220U % 6));
  EXPECT_EQ(partition_for("foobar", 7), static_cast<int>(3214735720U % 7));
  EXPECT_EQ(partition_for("", 1), 0);
}

TEST(Fnv1aPartitioner, HashesBytesAboveSevenBitsUnsigned) {
  // 0xFF must be XORed as 255, not sign-extended.
  const std::uint32_t expected = (2166136261U ^ 0xFFU) * 16777619U;
  EXPECT_EQ(fnv1a_32(std::string_view("\xFF", 1)), expected);
}

TEST(Fnv1aPartitioner, RejectsPartitionCountsBelowOne) {
  EXPECT_THROW((void)partition_for("a", 0), std::invalid_argument);
  EXPECT_THROW((void)partition_for("a", -3), std::invalid_argument);
}

}  // namespace
}  // namespace kgroups

namespace kgroups {
namespace {

TEST(Fnv1aPartitioner, FastModuloEqualsTheRemainderForEveryCount) {
  const std::string_view keys[] = {"", "a", "foobar", "key-000000000042", "\xFF\xFE"};
  for (int partitions = 1; partitions <= 2000; ++partitions) {
    const Fnv1aPartitioner partitioner(partitions);
    for (const std::string_view key : keys) {
      ASSERT_EQ(partitioner.partition(key), partition_for(key, partitions)) << partitions;
    }
  }
  const Fnv1aPartitioner largest(INT32_MAX);
  EXPECT_EQ(largest.partition("a"), static_cast<int>(3826002220U % INT32_MAX));
}

}  // namespace
}  // namespace kgroups
