// SPDX-License-Identifier: Apache-2.0
//
// SPEC.md, "Options", partitioner "murmur2": Kafka's murmur2 bit for bit (its
// own test vectors, and a reference written here from the Java code's
// arithmetic over random byte strings), made positive with & 0x7fffffff,
// modulo the partition count; partition_for's partitioner argument; and a
// murmur2 Topic's appends.

#include <climits>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "kgroups/kgroups.h"

namespace {

// Kafka's Utils.murmur2 as the Java code computes it: int arithmetic modulo
// 2^32 (kept in 64-bit words and masked after every step), bytes read as
// unsigned (& 0xff), >>> as a shift of the unsigned value.
std::int32_t reference_murmur2(std::string_view data) {
  constexpr std::uint64_t kMask = 0xffffffffULL;
  constexpr std::uint64_t kM = 0x5bd1e995ULL;
  constexpr int kR = 24;
  const auto byte_at = [data](std::size_t i) {
    return static_cast<std::uint64_t>(static_cast<unsigned char>(data[i]));
  };
  std::uint64_t h = (0x9747b28cULL ^ static_cast<std::uint64_t>(data.size())) & kMask;
  for (std::size_t i = 0; i < data.size() / 4; ++i) {
    const std::size_t i4 = i * 4;
    std::uint64_t k =
        (byte_at(i4) + (byte_at(i4 + 1) << 8) + (byte_at(i4 + 2) << 16) + (byte_at(i4 + 3) << 24)) &
        kMask;
    k = (k * kM) & kMask;
    k ^= k >> kR;
    k = (k * kM) & kMask;
    h = (h * kM) & kMask;
    h ^= k;
  }
  const std::size_t tail = data.size() - data.size() % 4;
  switch (data.size() % 4) {
    case 3:
      h ^= byte_at(tail + 2) << 16;
      [[fallthrough]];
    case 2:
      h ^= byte_at(tail + 1) << 8;
      [[fallthrough]];
    case 1:
      h ^= byte_at(tail);
      h = (h * kM) & kMask;
      break;
    default:
      break;
  }
  h ^= h >> 13;
  h = (h * kM) & kMask;
  h ^= h >> 15;
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(h));
}

// Kafka's default partitioner for a keyed record: toPositive(murmur2) % n.
int reference_murmur2_partition(std::string_view key, int num_partitions) {
  const auto positive = static_cast<std::uint32_t>(reference_murmur2(key)) & 0x7fffffffU;
  return static_cast<int>(positive % static_cast<std::uint32_t>(num_partitions));
}

struct KafkaVector {
  std::string key;
  std::int32_t murmur2;
};

// Kafka's UtilsTest.testMurmur2 (clients/src/test/java/org/apache/kafka/common/utils).
const std::vector<KafkaVector>& kafka_vectors() {
  static const std::vector<KafkaVector> kVectors = {
      {"21", -973932308},
      {"foobar", -790332482},
      {"a-little-bit-long-string", -985981536},
      {"a-little-bit-longer-string", -1486304829},
      {"lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8", -58897971},
      {"abc", 479470107},
  };
  return kVectors;
}

// Random byte strings of every length 0..40, many with bytes >= 0x80 (a
// signed-char read breaks on those).
std::vector<std::string> random_byte_strings() {
  std::mt19937_64 rng(20261202);
  std::vector<std::string> strings;
  for (int length = 0; length <= 40; ++length) {
    for (int sample = 0; sample < 25; ++sample) {
      std::string bytes(static_cast<std::size_t>(length), '\0');
      for (char& byte : bytes) {
        // Half the samples only high bytes, the rest any byte.
        byte = static_cast<char>(sample % 2 == 0 ? 0x80 + rng() % 0x80 : rng() % 0x100);
      }
      strings.push_back(bytes);
    }
  }
  return strings;
}

TEST(SpecMurmur2, KafkasOwnTestVectors) {
  for (const KafkaVector& vector : kafka_vectors()) {
    EXPECT_EQ(kgroups::murmur2(vector.key), vector.murmur2) << "key \"" << vector.key << "\"";
    // The reference below agrees with Kafka, so it can judge other inputs.
    EXPECT_EQ(reference_murmur2(vector.key), vector.murmur2) << "key \"" << vector.key << "\"";
  }
}

TEST(SpecMurmur2, MatchesTheJavaArithmeticOnRandomBytesOfEveryLength) {
  for (const std::string& bytes : random_byte_strings()) {
    ASSERT_EQ(kgroups::murmur2(bytes), reference_murmur2(bytes))
        << "length " << bytes.size() << " first byte "
        << (bytes.empty() ? -1 : static_cast<unsigned char>(bytes[0]));
  }
}

TEST(SpecMurmur2, PositiveIsTheHashWithoutItsSignBit) {
  for (const KafkaVector& vector : kafka_vectors()) {
    EXPECT_EQ(kgroups::murmur2_positive(vector.key),
              static_cast<std::uint32_t>(vector.murmur2) & 0x7fffffffU);
  }
  for (const std::string& bytes : random_byte_strings()) {
    const std::uint32_t positive = kgroups::murmur2_positive(bytes);
    ASSERT_LE(positive, static_cast<std::uint32_t>(INT_MAX));
    ASSERT_EQ(positive, static_cast<std::uint32_t>(reference_murmur2(bytes)) & 0x7fffffffU);
  }
}

TEST(SpecMurmur2, PartitionForFoobarOverSixAsSpecWritesIt) {
  // SPEC.md: partition_for("foobar", 6, "murmur2") is (-790332482 & 0x7fffffff) % 6.
  const int expected = static_cast<int>((static_cast<std::uint32_t>(-790332482) & 0x7fffffffU) % 6);
  EXPECT_EQ(expected, 0);  // 1357151166 % 6
  EXPECT_EQ(kgroups::partition_for("foobar", 6, "murmur2"), expected);
}

TEST(SpecMurmur2, PartitionForIsThePositiveHashModuloTheCount) {
  for (const KafkaVector& vector : kafka_vectors()) {
    for (int n : {1, 2, 3, 6, 7, 16, 1000, INT_MAX}) {
      EXPECT_EQ(kgroups::partition_for(vector.key, n, "murmur2"),
                static_cast<int>((static_cast<std::uint32_t>(vector.murmur2) & 0x7fffffffU) %
                                 static_cast<std::uint32_t>(n)))
          << "key \"" << vector.key << "\" n=" << n;
    }
  }
  for (const std::string& bytes : random_byte_strings()) {
    for (int n : {1, 3, 7, 100}) {
      ASSERT_EQ(kgroups::partition_for(bytes, n, "murmur2"), reference_murmur2_partition(bytes, n))
          << "length " << bytes.size() << " n=" << n;
    }
  }
}

TEST(SpecMurmur2, Fnv1aNamedExplicitlyIsTheDefaultPartitioner) {
  for (const std::string& key : {std::string(""), std::string("a"), std::string("foobar"),
                                 std::string("\xff\x80", 2), std::string("a\0b", 3)}) {
    for (int n : {1, 2, 6, 7, 1000}) {
      EXPECT_EQ(kgroups::partition_for(key, n, "fnv1a"), kgroups::partition_for(key, n));
    }
  }
  EXPECT_EQ(kgroups::partition_for("foobar", 1000000007, "fnv1a"),
            static_cast<int>(3214735720U % 1000000007U));
}

TEST(SpecMurmur2, UnknownPartitionerThrowsInvalidArgument) {
  for (std::string_view name : {"", "murmur", "Murmur2", "murmur2 ", "fnv1", "FNV1A", "random"}) {
    EXPECT_THROW((void)kgroups::partition_for("foobar", 6, name), std::invalid_argument)
        << "partitioner \"" << name << "\"";
  }
}

TEST(SpecMurmur2, CountBelowOneThrowsInvalidArgument) {
  for (int n : {0, -1, INT_MIN}) {
    EXPECT_THROW((void)kgroups::partition_for("foobar", n, "murmur2"), std::invalid_argument);
    EXPECT_THROW((void)kgroups::partition_for("foobar", n, "fnv1a"), std::invalid_argument);
  }
}

TEST(SpecMurmur2, TopicAppendsToTheMurmur2Partition) {
  kgroups::TopicOptions options;
  options.partitioner = "murmur2";
  for (int n : {1, 2, 6, 7, 100}) {
    kgroups::Topic topic(n, options);
    std::vector<std::int64_t> next(static_cast<std::size_t>(n), 0);
    int differs_from_fnv1a = 0;
    for (const std::string& key : random_byte_strings()) {
      const int expected = reference_murmur2_partition(key, n);
      const auto [partition, offset] = topic.append(key, "v");
      ASSERT_EQ(partition, expected) << "length " << key.size() << " n=" << n;
      ASSERT_EQ(offset, next[static_cast<std::size_t>(partition)]++);
      if (expected != kgroups::partition_for(key, n)) ++differs_from_fnv1a;
    }
    for (const KafkaVector& vector : kafka_vectors()) {
      EXPECT_EQ(topic.append(vector.key, "v").first, reference_murmur2_partition(vector.key, n));
    }
    // The option really changes the placement (except with one partition).
    if (n > 1) {
      EXPECT_GT(differs_from_fnv1a, 0) << "n=" << n;
    }
  }
}

TEST(SpecMurmur2, TopicKeepsOneKeyOnOnePartitionInOrder) {
  kgroups::TopicOptions options;
  options.partitioner = "murmur2";
  kgroups::Topic topic(6, options);
  const int partition = reference_murmur2_partition("foobar", 6);
  for (int i = 0; i < 10; ++i) {
    topic.append("other-" + std::to_string(i), "x");
    EXPECT_EQ(topic.append("foobar", std::to_string(i)).first, partition);
  }
  topic.join("g", "c");
  std::vector<std::string> values;
  for (const kgroups::Record& record : topic.poll("g", "c", 1000)) {
    if (record.key == "foobar") {
      EXPECT_EQ(record.partition, partition);
      values.emplace_back(record.value);
    }
  }
  ASSERT_EQ(values.size(), 10U);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(values[static_cast<std::size_t>(i)], std::to_string(i));
}

}  // namespace
