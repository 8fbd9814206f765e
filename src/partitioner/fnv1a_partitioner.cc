// SPDX-License-Identifier: Apache-2.0
#include <stdexcept>
#include <string>

#include "kgroups/partitioner.h"

namespace kgroups {

int partition_for(std::string_view key, int num_partitions) {
  if (num_partitions < 1) {
    throw std::invalid_argument("partition_for: num_partitions must be at least 1, got " +
                                std::to_string(num_partitions));
  }
  return static_cast<int>(fnv1a_32(key) % static_cast<std::uint32_t>(num_partitions));
}

}  // namespace kgroups
