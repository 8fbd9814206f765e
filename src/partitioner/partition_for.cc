// SPDX-License-Identifier: Apache-2.0
#include <stdexcept>
#include <string>

#include "kgroups/partitioner.h"
#include "partitioner/key_partitioner.h"

namespace kgroups {
namespace {

void check_partition_count(int num_partitions) {
  if (num_partitions < 1) {
    throw std::invalid_argument("partition_for: num_partitions must be at least 1, got " +
                                std::to_string(num_partitions));
  }
}

}  // namespace

std::optional<KeyHash> key_hash_named(std::string_view partitioner) noexcept {
  if (partitioner == "fnv1a") return KeyHash::kFnv1a;
  if (partitioner == "murmur2") return KeyHash::kMurmur2;
  return std::nullopt;
}

int partition_for(std::string_view key, int num_partitions) {
  check_partition_count(num_partitions);
  return static_cast<int>(fnv1a_32(key) % static_cast<std::uint32_t>(num_partitions));
}

int partition_for(std::string_view key, int num_partitions, std::string_view partitioner) {
  check_partition_count(num_partitions);
  const std::optional<KeyHash> hash = key_hash_named(partitioner);
  if (!hash) {
    throw std::invalid_argument("partition_for: unknown partitioner \"" + std::string(partitioner) +
                                R"("; choose "fnv1a" or "murmur2")");
  }
  return static_cast<int>(key_hash(*hash, key) % static_cast<std::uint32_t>(num_partitions));
}

}  // namespace kgroups
