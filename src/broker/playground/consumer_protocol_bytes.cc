// SPDX-License-Identifier: Apache-2.0
#include "broker/playground/consumer_protocol_bytes.h"

#include "protocol/wire_reader.h"
#include "protocol/wire_writer.h"

namespace kgroups::broker::playground {
namespace {

void write_partitions(protocol::WireWriter& writer, std::string_view topic,
                      const std::vector<std::int32_t>& partitions) {
  writer.write_array_length(partitions.empty() ? 0 : 1);
  if (partitions.empty()) return;
  writer.write_string(topic);
  writer.write_array(partitions, [](protocol::WireWriter& out, std::int32_t partition) {
    out.write_int32(partition);
  });
}

AssignedTopicPartitions read_topic_partitions(protocol::WireReader& reader) {
  AssignedTopicPartitions entry;
  entry.topic = std::string(reader.read_string());
  entry.partitions =
      reader.read_array<std::int32_t>([](protocol::WireReader& in) { return in.read_int32(); }, 4);
  return entry;
}

}  // namespace

std::vector<std::uint8_t> encode_consumer_subscription(std::string_view topic,
                                                       const std::vector<std::int32_t>& owned) {
  std::vector<std::uint8_t> out;
  protocol::WireWriter writer(out);
  writer.write_int16(1);
  writer.write_array_length(1);
  writer.write_string(topic);
  writer.write_nullable_bytes(std::nullopt);  // user data
  write_partitions(writer, topic, owned);
  return out;
}

std::optional<ConsumerSubscription> decode_consumer_subscription(
    std::span<const std::uint8_t> metadata) {
  protocol::WireReader reader(metadata);
  const std::int16_t version = reader.read_int16();
  ConsumerSubscription subscription;
  for (const std::string_view topic : reader.read_array<std::string_view>(
           [](protocol::WireReader& in) { return in.read_string(); }, 2)) {
    subscription.topics.emplace_back(topic);
  }
  (void)reader.read_nullable_bytes();  // user data
  if (version >= 1 && reader.ok()) {
    subscription.owned_partitions =
        reader.read_array<AssignedTopicPartitions>(read_topic_partitions, 6);
  }
  if (!reader.ok() || version < 0) return std::nullopt;
  return subscription;
}

std::vector<std::uint8_t> encode_consumer_assignment(std::string_view topic,
                                                     const std::vector<std::int32_t>& partitions) {
  std::vector<std::uint8_t> out;
  protocol::WireWriter writer(out);
  writer.write_int16(0);
  write_partitions(writer, topic, partitions);
  writer.write_nullable_bytes(std::nullopt);  // user data
  return out;
}

}  // namespace kgroups::broker::playground
