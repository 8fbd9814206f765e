// SPDX-License-Identifier: Apache-2.0
//
// SPEC.md, "Partitioning" and the append/end_offset rows of "Operations":
// FNV-1a with its reference values, the modulo, and dense per-partition offsets.

#include <climits>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "kgroups/kgroups.h"
#include "reference_keys.h"

namespace {

using kgroups_spec::reference_fnv1a;
using kgroups_spec::reference_partition;

// Keys with ASCII, empty, embedded NUL and high-bit bytes (a signed-char hash breaks on these).
const std::vector<std::string>& sample_keys() {
  static const std::vector<std::string> kKeys = {
      "",
      "a",
      "b",
      "foobar",
      "user-42",
      "\xff",
      "\x80",
      "\xc3\xa9t\xc3\xa9",
      std::string("\0", 1),
      std::string("a\0b", 3),
      "orders",
      "a much longer key than the others, to cover many rounds of the hash loop"};
  return kKeys;
}

TEST(SpecPartitioning, ReferenceHashValues) {
  // SPEC.md's reference values, taken as written.
  EXPECT_EQ(kgroups::fnv1a_32(""), 2166136261U);
  EXPECT_EQ(kgroups::fnv1a_32("a"), 3826002220U);
  EXPECT_EQ(kgroups::fnv1a_32("foobar"), 3214735720U);
  // The test's own FNV-1a agrees with them, so it can serve as the reference below.
  EXPECT_EQ(reference_fnv1a(""), 2166136261U);
  EXPECT_EQ(reference_fnv1a("a"), 3826002220U);
  EXPECT_EQ(reference_fnv1a("foobar"), 3214735720U);
}

TEST(SpecPartitioning, ReferenceValuesModuloPartitionCount) {
  for (int n = 1; n <= 64; ++n) {
    EXPECT_EQ(kgroups::partition_for("", n), static_cast<int>(2166136261U % n)) << "n=" << n;
    EXPECT_EQ(kgroups::partition_for("a", n), static_cast<int>(3826002220U % n)) << "n=" << n;
    EXPECT_EQ(kgroups::partition_for("foobar", n), static_cast<int>(3214735720U % n)) << "n=" << n;
  }
}

TEST(SpecPartitioning, HashIsFnv1aOverTheKeyBytes) {
  for (const std::string& key : sample_keys()) {
    EXPECT_EQ(kgroups::fnv1a_32(key), reference_fnv1a(key)) << "key \"" << key << "\"";
    for (int n : {1, 2, 3, 6, 7, 16, 1000}) {
      EXPECT_EQ(kgroups::partition_for(key, n), reference_partition(key, n))
          << "key \"" << key << "\" n=" << n;
    }
  }
}

TEST(SpecPartitioning, ModuloUsesTheUnsignedHash) {
  // Every sample hash here is above INT_MAX, so a signed modulo would go wrong.
  for (const std::string& key : {std::string(""), std::string("a"), std::string("foobar")}) {
    ASSERT_GT(reference_fnv1a(key), static_cast<std::uint32_t>(INT_MAX));
    EXPECT_EQ(kgroups::partition_for(key, INT_MAX),
              static_cast<int>(reference_fnv1a(key) % static_cast<std::uint32_t>(INT_MAX)));
  }
}

TEST(SpecPartitioning, OnePartitionTakesEveryKey) {
  for (const std::string& key : sample_keys()) EXPECT_EQ(kgroups::partition_for(key, 1), 0);
}

TEST(SpecPartitioning, CountBelowOneThrowsInvalidArgument) {
  for (int n : {0, -1, -6, INT_MIN}) {
    EXPECT_THROW((void)kgroups::partition_for("a", n), std::invalid_argument) << "n=" << n;
    EXPECT_THROW((void)kgroups::partition_for("", n), std::invalid_argument) << "n=" << n;
  }
}

TEST(SpecPartitioning, AppendWritesToTheKeysPartition) {
  for (int n : {1, 2, 6, 7}) {
    kgroups::Topic topic(n);
    for (const std::string& key : sample_keys()) {
      EXPECT_EQ(topic.append(key, "v").first, reference_partition(key, n))
          << "key \"" << key << "\" n=" << n;
    }
  }
}

TEST(SpecPartitioning, OneKeyKeepsOnePartitionAndItsOrder) {
  kgroups::Topic topic(7);
  const int partition = reference_partition("user-42", 7);
  for (int i = 0; i < 20; ++i) {
    topic.append("other-" + std::to_string(i), "x");
    const auto [p, offset] = topic.append("user-42", std::to_string(i));
    EXPECT_EQ(p, partition);
  }
  topic.join("g", "c");
  std::vector<std::string> values;
  for (const kgroups::Record& record : topic.poll("g", "c", 1000)) {
    if (record.key == "user-42") values.emplace_back(record.value);
  }
  ASSERT_EQ(values.size(), 20U);
  for (int i = 0; i < 20; ++i) EXPECT_EQ(values[i], std::to_string(i));
}

TEST(SpecAppend, NewTopicHasEmptyPartitions) {
  kgroups::Topic topic(5);
  EXPECT_EQ(topic.num_partitions(), 5);
  for (int p = 0; p < 5; ++p) EXPECT_EQ(topic.end_offset(p), 0);
}

TEST(SpecAppend, OffsetsAreDenseFromZeroPerPartition) {
  constexpr int kPartitions = 7;
  kgroups::Topic topic(kPartitions);
  std::map<int, std::int64_t> next;  // partition -> expected next offset
  for (int i = 0; i < 500; ++i) {
    const std::string key = "k" + std::to_string(i % 37);
    const auto [partition, offset] = topic.append(key, "v" + std::to_string(i));
    ASSERT_EQ(partition, reference_partition(key, kPartitions));
    EXPECT_EQ(offset, next[partition]) << "append #" << i << " partition " << partition;
    next[partition] = offset + 1;
    EXPECT_EQ(topic.end_offset(partition), next[partition]);
  }
  for (int p = 0; p < kPartitions; ++p) EXPECT_EQ(topic.end_offset(p), next[p]) << "p" << p;
}

TEST(SpecAppend, EndOffsetIsTheNextOffsetAndTheRecordCount) {
  kgroups::Topic topic(3);
  const std::string key = kgroups_spec::key_on_partition(1, 3);
  for (std::int64_t i = 0; i < 10; ++i) {
    EXPECT_EQ(topic.end_offset(1), i);
    EXPECT_EQ(topic.append(key, "v").second, i);
  }
  EXPECT_EQ(topic.end_offset(0), 0);
  EXPECT_EQ(topic.end_offset(1), 10);
  EXPECT_EQ(topic.end_offset(2), 0);
}

TEST(SpecAppend, EmptyAndBinaryKeysAndValuesRoundTrip) {
  kgroups::Topic topic(1);
  const std::string binary("\0\x01\xff\x80 end", 8);
  topic.append("", "");
  topic.append(binary, binary);
  topic.append("k", std::string(100'000, 'x'));
  topic.join("g", "c");
  const auto records = topic.poll("g", "c");
  ASSERT_EQ(records.size(), 3U);
  EXPECT_EQ(records[0].key, "");
  EXPECT_EQ(records[0].value, "");
  EXPECT_EQ(records[1].key, binary);
  EXPECT_EQ(records[1].value, binary);
  EXPECT_EQ(records[2].value, std::string(100'000, 'x'));
}

}  // namespace
