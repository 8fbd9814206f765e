// SPDX-License-Identifier: Apache-2.0
//
// Fnv1aPartitioner: partition_for() for a fixed partition count, on the append
// hot path. The modulo is Lemire's fastmod (a multiply instead of a division),
// exact for every 32-bit hash and count. Immutable; safe from any thread.
#pragma once

#include <cstdint>
#include <string_view>

#include "kgroups/partitioner.h"

namespace kgroups {

class Fnv1aPartitioner {
 public:
  // Requires num_partitions >= 1.
  explicit Fnv1aPartitioner(int num_partitions) noexcept
      : divisor_(static_cast<std::uint32_t>(num_partitions)), inverse_(UINT64_MAX / divisor_ + 1) {}

  // fnv1a_32(key) % num_partitions.
  [[nodiscard]] int partition(std::string_view key) const noexcept {
    __extension__ using Wide = unsigned __int128;
    const std::uint64_t fraction = inverse_ * fnv1a_32(key);
    return static_cast<int>((static_cast<Wide>(fraction) * divisor_) >> 64U);
  }

 private:
  std::uint32_t divisor_;
  std::uint64_t inverse_;  // ceil(2^64 / divisor_), 0 for divisor_ == 1
};

}  // namespace kgroups
