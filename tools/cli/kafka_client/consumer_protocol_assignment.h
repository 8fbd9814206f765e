// SPDX-License-Identifier: Apache-2.0
//
// The partitions of a classic member's "consumer" protocol assignment: the SyncGroup bytes
// Kafka's consumers exchange and DescribeGroups returns as member_assignment
// (ConsumerProtocolAssignment v0-3: int16 version, an int32-counted array of topics, each an
// int16-length name and an int32-counted array of int32 partitions, then user data this
// reader skips). Thread-safe: a pure function.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace kgroups::cli {

struct AssignedTopic {
  std::string topic;
  std::vector<std::int32_t> partitions;  // in the order the assignment lists them

  bool operator==(const AssignedTopic&) const = default;
};

// The assigned partitions by topic: empty for empty bytes (a member that has no assignment
// yet); nullopt when `assignment` is not an assignment this reader understands (truncated,
// a negative count or length).
std::optional<std::vector<AssignedTopic>> decode_consumer_assignment(
    std::span<const std::uint8_t> assignment);

}  // namespace kgroups::cli
