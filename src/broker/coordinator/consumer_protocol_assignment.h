// SPDX-License-Identifier: Apache-2.0
//
// The partitions of a classic member's "consumer" protocol assignment: the SyncGroup
// assignment bytes Kafka's consumer leaders send (ConsumerProtocolAssignment v0-3: int16
// version, then an int32-counted array of {int16-length topic name, int32-counted array of
// int32 partitions}, then user data this reader skips). The control endpoint reads it to show
// each member's assignment (GET /v1/groups/{id}).
// Thread-safe: a pure function.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace kgroups::broker {

struct AssignedTopicPartitions {
  std::string topic;
  std::vector<std::int32_t> partitions;  // as the leader listed them

  bool operator==(const AssignedTopicPartitions&) const = default;
};

// The assigned partitions by topic, in the order the bytes list them; empty for empty bytes
// (no assignment yet); nullopt if `assignment` is not one this reader understands (too
// short, a negative count or length, a count larger than the bytes hold).
std::optional<std::vector<AssignedTopicPartitions>> consumer_assignment_partitions(
    std::span<const std::uint8_t> assignment);

}  // namespace kgroups::broker
