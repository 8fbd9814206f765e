// SPDX-License-Identifier: Apache-2.0
//
// KeyPartitioner: partition_for() for a fixed partition count and hash, on the
// append hot path: FNV-1a (SPEC.md, "Partitioning") or Kafka's murmur2 made
// positive (SPEC.md, "Options"). The modulo is Lemire's fastmod (a multiply
// instead of a division), exact for every 32-bit hash and count.
// Immutable; safe from any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "kgroups/partitioner.h"

namespace kgroups {

enum class KeyHash : std::uint8_t { kFnv1a, kMurmur2 };

// The hash a partitioner name stands for ("fnv1a", "murmur2"); nullopt if none.
[[nodiscard]] std::optional<KeyHash> key_hash_named(std::string_view partitioner) noexcept;

// The 32-bit value a hash gives `key` before the modulo.
[[nodiscard]] constexpr std::uint32_t key_hash(KeyHash hash, std::string_view key) noexcept {
  return hash == KeyHash::kMurmur2 ? murmur2_positive(key) : fnv1a_32(key);
}

class KeyPartitioner {
 public:
  // Requires num_partitions >= 1.
  KeyPartitioner(int num_partitions, KeyHash hash) noexcept
      : divisor_(static_cast<std::uint32_t>(num_partitions)),
        inverse_(UINT64_MAX / divisor_ + 1),
        hash_(hash) {}

  // key_hash(hash, key) % num_partitions.
  [[nodiscard]] int partition(std::string_view key) const noexcept {
    __extension__ using Wide = unsigned __int128;
    const std::uint64_t fraction = inverse_ * key_hash(hash_, key);
    return static_cast<int>((static_cast<Wide>(fraction) * divisor_) >> 64U);
  }

 private:
  std::uint32_t divisor_;
  std::uint64_t inverse_;  // ceil(2^64 / divisor_), 0 for divisor_ == 1
  KeyHash hash_;
};

}  // namespace kgroups
