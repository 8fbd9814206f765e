// SPDX-License-Identifier: Apache-2.0
//
// Reference partitioning for the spec tests: FNV-1a written again from SPEC.md,
// so that no spec test asks the library under test where a key lands, and a
// helper that picks a key for a given partition. Pure functions (AppendToPartition
// writes to the Topic it is given); thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "kgroups/topic.h"

namespace kgroups_spec {

// SPEC.md, "Partitioning": h = 2166136261; per byte h = (h XOR b) * 16777619 mod 2^32.
inline std::uint32_t reference_fnv1a(std::string_view key) {
  std::uint64_t hash = 2166136261U;
  for (const char byte : key) {
    hash ^= static_cast<unsigned char>(byte);
    hash = (hash * 16777619U) % (std::uint64_t{1} << 32);
  }
  return static_cast<std::uint32_t>(hash);
}

inline int reference_partition(std::string_view key, int num_partitions) {
  return static_cast<int>(reference_fnv1a(key) % static_cast<std::uint32_t>(num_partitions));
}

// The first key "<prefix><i>" (i = 0, 1, ...) that lands on `partition` of a
// topic with `num_partitions` partitions.
inline std::string key_on_partition(int partition, int num_partitions,
                                    std::string_view prefix = "key-") {
  for (int i = 0;; ++i) {
    std::string key = std::string(prefix) + std::to_string(i);
    if (reference_partition(key, num_partitions) == partition) return key;
  }
}

// Appends `count` records with values "<value_prefix><i>" to `partition`.
inline void append_to_partition(kgroups::Topic& topic, int partition, int count,
                                std::string_view value_prefix = "v") {
  const std::string key = key_on_partition(partition, topic.num_partitions());
  for (int i = 0; i < count; ++i) topic.append(key, std::string(value_prefix) + std::to_string(i));
}

}  // namespace kgroups_spec
