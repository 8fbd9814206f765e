// SPDX-License-Identifier: Apache-2.0
#include "broker/coordinator/consumer_protocol_assignment.h"

#include <cstddef>

namespace kgroups::broker {

std::optional<std::vector<AssignedTopicPartitions>> consumer_assignment_partitions(
    std::span<const std::uint8_t> assignment) {
  if (assignment.empty()) return std::vector<AssignedTopicPartitions>{};
  std::size_t at = 0;
  const auto read_be = [&](std::size_t bytes) -> std::optional<std::int64_t> {
    if (assignment.size() - at < bytes) return std::nullopt;
    std::uint64_t value = 0;
    for (std::size_t i = 0; i < bytes; ++i) value = (value << 8) | assignment[at + i];
    at += bytes;
    // Sign-extend the field to 64 bits.
    const unsigned shift = 64 - static_cast<unsigned>(bytes) * 8;
    return static_cast<std::int64_t>(value << shift) >> shift;
  };
  // Returns whether `count` is a count of at least `min_bytes`-byte items the rest can hold.
  const auto plausible = [&](const std::optional<std::int64_t>& count, std::size_t min_bytes) {
    return count && *count >= 0 &&
           static_cast<std::uint64_t>(*count) <= (assignment.size() - at) / min_bytes;
  };
  if (!read_be(2)) return std::nullopt;  // the assignment's version
  const std::optional<std::int64_t> topic_count = read_be(4);
  // Each topic takes at least its name's length and its partition count: 6 bytes.
  if (!plausible(topic_count, 6)) return std::nullopt;
  std::vector<AssignedTopicPartitions> topics;
  topics.reserve(static_cast<std::size_t>(*topic_count));
  for (std::int64_t i = 0; i < *topic_count; ++i) {
    const std::optional<std::int64_t> length = read_be(2);
    if (!length || *length < 0 || assignment.size() - at < static_cast<std::size_t>(*length)) {
      return std::nullopt;
    }
    AssignedTopicPartitions& topic = topics.emplace_back();
    topic.topic.assign(reinterpret_cast<const char*>(assignment.data() + at),
                       static_cast<std::size_t>(*length));
    at += static_cast<std::size_t>(*length);
    const std::optional<std::int64_t> partition_count = read_be(4);
    if (!plausible(partition_count, 4)) return std::nullopt;
    topic.partitions.reserve(static_cast<std::size_t>(*partition_count));
    for (std::int64_t p = 0; p < *partition_count; ++p) {
      topic.partitions.push_back(static_cast<std::int32_t>(*read_be(4)));
    }
  }
  return topics;
}

}  // namespace kgroups::broker
