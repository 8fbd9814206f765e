// SPDX-License-Identifier: Apache-2.0
#include "kafka_client/consumer_protocol_assignment.h"

#include "protocol/wire_reader.h"

namespace kgroups::cli {

std::optional<std::vector<AssignedTopic>> decode_consumer_assignment(
    std::span<const std::uint8_t> assignment) {
  if (assignment.empty()) return std::vector<AssignedTopic>{};
  protocol::WireReader reader(assignment);
  reader.read_int16();  // the assignment's version; v0-3 share the fields read here
  // A topic takes at least its name's length and its partition count: 6 bytes.
  std::vector<AssignedTopic> topics = reader.read_array<AssignedTopic>(
      [](protocol::WireReader& topic_reader) {
        AssignedTopic topic;
        topic.topic = std::string(topic_reader.read_string());
        topic.partitions = topic_reader.read_array<std::int32_t>(
            [](protocol::WireReader& partition_reader) { return partition_reader.read_int32(); },
            4);
        return topic;
      },
      6);
  if (!reader.ok()) return std::nullopt;
  return topics;
}

}  // namespace kgroups::cli
