// SPDX-License-Identifier: Apache-2.0
//
// The partitions of a classic member's "consumer" protocol assignment: the SyncGroup
// assignment bytes a Kafka consumer group's leader sends for each member
// (ConsumerProtocolAssignment v0-3: int16 version, an int32-counted array of topics, each an
// int16-length name and an int32-counted array of int32 partitions, then user data this reader
// skips). The coordinator reads it only to report assignments (the event log); it never acts
// on it.
// Thread-safe: a pure function.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace kgroups::broker {

// One topic's partitions of a member's assignment, in the order the assignment lists them.
struct AssignedTopicPartitions {
  std::string topic;
  std::vector<std::int32_t> partitions;

  bool operator==(const AssignedTopicPartitions&) const = default;
};

// The assigned partitions by topic, or nullopt if `assignment` is not an assignment this
// reader understands (too short, a negative count or length, a count larger than the bytes
// hold). Empty bytes are an empty assignment (a member the leader gave nothing).
std::optional<std::vector<AssignedTopicPartitions>> consumer_assignment_partitions(
    std::span<const std::uint8_t> assignment);

}  // namespace kgroups::broker
