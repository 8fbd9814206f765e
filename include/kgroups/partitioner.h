// SPDX-License-Identifier: Apache-2.0
//
// partition_for: the partition a key lands on. "fnv1a" (SPEC.md,
// "Partitioning", the default): 32-bit FNV-1a over the key's bytes, modulo the
// partition count. "murmur2" (SPEC.md, "Options"): Kafka's default partitioner
// for keyed records, murmur2 of the key's bytes made positive with
// & 0x7fffffff, modulo the partition count.
// Pure functions; safe to call from any thread.
#pragma once

#include <cstdint>
#include <string_view>

namespace kgroups {

// The 32-bit FNV-1a hash of `bytes`. fnv1a_32("") == 2166136261.
[[nodiscard]] constexpr std::uint32_t fnv1a_32(std::string_view bytes) noexcept {
  std::uint32_t hash = 2166136261U;
  for (const char byte : bytes) {
    hash ^= static_cast<std::uint8_t>(byte);
    hash *= 16777619U;
  }
  return hash;
}

// Kafka's murmur2 (org.apache.kafka.common.utils.Utils.murmur2: seed
// 0x9747b28c, little-endian 4-byte blocks) of `bytes`, as the Java int it
// returns: murmur2("21") == -973932308.
[[nodiscard]] constexpr std::int32_t murmur2(std::string_view bytes) noexcept {
  constexpr std::uint32_t kMultiplier = 0x5bd1e995U;
  constexpr unsigned kShift = 24;
  const auto length = static_cast<std::uint32_t>(bytes.size());
  std::uint32_t hash = 0x9747b28cU ^ length;
  auto byte_at = [bytes](std::size_t index) {
    return static_cast<std::uint32_t>(static_cast<std::uint8_t>(bytes[index]));
  };
  const std::size_t blocks_end = bytes.size() & ~std::size_t{3};
  for (std::size_t i = 0; i < blocks_end; i += 4) {
    std::uint32_t block =
        byte_at(i) | (byte_at(i + 1) << 8U) | (byte_at(i + 2) << 16U) | (byte_at(i + 3) << 24U);
    block *= kMultiplier;
    block ^= block >> kShift;
    block *= kMultiplier;
    hash *= kMultiplier;
    hash ^= block;
  }
  switch (bytes.size() & 3U) {
    case 3:
      hash ^= byte_at(blocks_end + 2) << 16U;
      [[fallthrough]];
    case 2:
      hash ^= byte_at(blocks_end + 1) << 8U;
      [[fallthrough]];
    case 1:
      hash ^= byte_at(blocks_end);
      hash *= kMultiplier;
      break;
    default:
      break;
  }
  hash ^= hash >> 13U;
  hash *= kMultiplier;
  hash ^= hash >> 15U;
  return static_cast<std::int32_t>(hash);
}

// The partition Kafka's default partitioner picks for a keyed record:
// murmur2 made positive (& 0x7fffffff), as a 32-bit unsigned value.
[[nodiscard]] constexpr std::uint32_t murmur2_positive(std::string_view bytes) noexcept {
  return static_cast<std::uint32_t>(murmur2(bytes)) & 0x7fffffffU;
}

// fnv1a_32(key) % num_partitions. Throws std::invalid_argument if
// num_partitions < 1.
[[nodiscard]] int partition_for(std::string_view key, int num_partitions);

// The partition `partitioner` ("fnv1a" or "murmur2") picks for `key`. Throws
// std::invalid_argument if num_partitions < 1 or the partitioner is unknown.
[[nodiscard]] int partition_for(std::string_view key, int num_partitions,
                                std::string_view partitioner);

}  // namespace kgroups
