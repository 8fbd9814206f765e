// SPDX-License-Identifier: Apache-2.0
#include "broker/storage/replica_placement.h"

namespace kgroups::broker {

std::vector<std::vector<std::int32_t>> place_replicas(std::int32_t brokers, std::int32_t partitions,
                                                      std::int32_t replication_factor,
                                                      std::int32_t start, std::int32_t shift,
                                                      std::int32_t first_partition) {
  std::vector<std::vector<std::int32_t>> placement;
  placement.reserve(static_cast<std::size_t>(partitions));
  start %= brokers;
  shift %= brokers;
  for (std::int32_t p = first_partition; p < first_partition + partitions; ++p) {
    // Kafka moves the followers' shift on at every full round of the brokers after the first.
    const std::int32_t round_shift = shift + (p / brokers);
    const std::int32_t first = (p + start) % brokers;
    std::vector<std::int32_t> replicas{first};
    for (std::int32_t j = 0; j < replication_factor - 1; ++j) {
      const std::int32_t step = 1 + (round_shift + j) % (brokers - 1);
      replicas.push_back((first + step) % brokers);
    }
    placement.push_back(std::move(replicas));
  }
  return placement;
}

}  // namespace kgroups::broker
