// SPDX-License-Identifier: Apache-2.0
//
// Replica placement: which brokers hold each partition of a new topic, as Kafka's
// rack-unaware assignment does it (AdminUtils.assignReplicasToBrokers without racks). Partition
// p's first replica (its preferred leader) is broker (start + p) mod n; the others follow it
// at a shift that grows by one each time the partitions have gone once round the brokers, so
// that leaders and followers spread evenly. Kafka draws `start` and the first shift at random;
// so do callers (Cluster), passing them in so that tests can fix them.
// Pure functions; no state.
#pragma once

#include <cstdint>
#include <vector>

namespace kgroups::broker {

// The replicas of partitions [first_partition, first_partition + partitions) of a topic on
// brokers 0..brokers-1, `replication_factor` each (1 <= replication_factor <= brokers).
// `start` and `shift` are Kafka's startIndex and nextReplicaShift (any values; taken mod
// brokers).
std::vector<std::vector<std::int32_t>> place_replicas(std::int32_t brokers, std::int32_t partitions,
                                                      std::int32_t replication_factor,
                                                      std::int32_t start, std::int32_t shift,
                                                      std::int32_t first_partition = 0);

}  // namespace kgroups::broker
