// SPDX-License-Identifier: Apache-2.0
//
// ConsumerAssignment: a set of partitions keyed by topic id, the form in which the
// consumer-group coordinator keeps target assignments, members' assigned partitions
// and partitions pending revocation; plus the list form the heartbeat carries.
// Invariant kept by every function here: no topic maps to an empty set.
// Value types and pure functions; thread-safe as any value.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <vector>

#include "broker/coordinator/topic_id.h"

namespace kgroups::broker {

using ConsumerAssignment = std::map<TopicId, std::set<std::int32_t>>;

// One topic's partitions, as ConsumerGroupHeartbeat's TopicPartitions carries them.
struct TopicPartitions {
  TopicId topic_id{};
  std::vector<std::int32_t> partitions;  // ascending when the coordinator builds it

  bool operator==(const TopicPartitions&) const = default;
};

// Returns the assignment as lists, topics in id order, partitions ascending.
std::vector<TopicPartitions> to_topic_partitions(const ConsumerAssignment& assignment);

// Returns the set the lists name (duplicates collapse; empty lists leave no topic).
ConsumerAssignment from_topic_partitions(const std::vector<TopicPartitions>& lists);

// Returns how many partitions the assignment holds over all topics.
std::size_t partition_count(const ConsumerAssignment& assignment);

[[nodiscard]] bool contains(const ConsumerAssignment& assignment, const TopicId& topic_id,
                            std::int32_t partition);

// Returns whether every partition the lists name is in `assignment`.
[[nodiscard]] bool is_subset(const std::vector<TopicPartitions>& lists,
                             const ConsumerAssignment& assignment);

// Returns whether any partition the lists name is in `assignment`.
[[nodiscard]] bool intersects(const std::vector<TopicPartitions>& lists,
                              const ConsumerAssignment& assignment);

// Adds `partition`, or removes it keeping the no-empty-set invariant.
void add_partition(ConsumerAssignment& assignment, const TopicId& topic_id, std::int32_t partition);
void remove_partition(ConsumerAssignment& assignment, const TopicId& topic_id,
                      std::int32_t partition);

}  // namespace kgroups::broker
