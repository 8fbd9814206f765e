// SPDX-License-Identifier: Apache-2.0
//
// partition_for: the partition a key lands on (SPEC.md, "Partitioning"):
// 32-bit FNV-1a over the key's bytes, modulo the partition count.
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

// fnv1a_32(key) % num_partitions. Throws std::invalid_argument if
// num_partitions < 1.
[[nodiscard]] int partition_for(std::string_view key, int num_partitions);

}  // namespace kgroups
