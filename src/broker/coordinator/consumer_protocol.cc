// SPDX-License-Identifier: Apache-2.0
#include "broker/coordinator/consumer_protocol.h"

#include <cstddef>

namespace kgroups::broker {
namespace {

// Big-endian reads that stop at the end of the bytes: a read past it returns nullopt.
class ProtocolBytesReader {
 public:
  explicit ProtocolBytesReader(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}

  std::optional<std::int64_t> read_int(std::size_t width) {
    if (bytes_.size() - at_ < width) return std::nullopt;
    std::uint64_t value = 0;
    for (std::size_t i = 0; i < width; ++i) value = (value << 8) | bytes_[at_ + i];
    at_ += width;
    const unsigned shift = 64 - static_cast<unsigned>(width) * 8;  // sign-extend
    return static_cast<std::int64_t>(value << shift) >> shift;
  }

  // An int32 count of elements that each take at least `min_element_bytes`: nullopt when
  // negative or when the bytes left cannot hold that many.
  std::optional<std::size_t> read_count(std::size_t min_element_bytes) {
    const std::optional<std::int64_t> count = read_int(4);
    if (!count || *count < 0 ||
        static_cast<std::uint64_t>(*count) > (bytes_.size() - at_) / min_element_bytes) {
      return std::nullopt;
    }
    return static_cast<std::size_t>(*count);
  }

  // An int16-length string (not nullable).
  std::optional<std::string> read_string() {
    const std::optional<std::int64_t> length = read_int(2);
    if (!length || *length < 0 || bytes_.size() - at_ < static_cast<std::size_t>(*length)) {
      return std::nullopt;
    }
    std::string text(reinterpret_cast<const char*>(bytes_.data() + at_),
                     static_cast<std::size_t>(*length));
    at_ += text.size();
    return text;
  }

  // Skips int32-length nullable bytes; false if they do not fit.
  bool skip_nullable_bytes() {
    const std::optional<std::int64_t> length = read_int(4);
    if (!length) return false;
    if (*length == -1) return true;  // null
    if (*length < 0) return false;
    if (bytes_.size() - at_ < static_cast<std::size_t>(*length)) return false;
    at_ += static_cast<std::size_t>(*length);
    return true;
  }

 private:
  std::span<const std::uint8_t> bytes_;
  std::size_t at_ = 0;
};

std::optional<std::vector<std::string>> read_topic_names(ProtocolBytesReader& reader) {
  const std::optional<std::size_t> count = reader.read_count(2);  // a name's length bytes
  if (!count) return std::nullopt;
  std::vector<std::string> topics;
  topics.reserve(*count);
  for (std::size_t i = 0; i < *count; ++i) {
    std::optional<std::string> topic = reader.read_string();
    if (!topic) return std::nullopt;
    topics.push_back(std::move(*topic));
  }
  return topics;
}

std::optional<std::vector<AssignedTopicPartitions>> read_topic_partitions(
    ProtocolBytesReader& reader) {
  // Each topic takes at least its name's two length bytes and its four count bytes.
  const std::optional<std::size_t> count = reader.read_count(6);
  if (!count) return std::nullopt;
  std::vector<AssignedTopicPartitions> topics;
  topics.reserve(*count);
  for (std::size_t i = 0; i < *count; ++i) {
    std::optional<std::string> name = reader.read_string();
    const std::optional<std::size_t> partitions = name ? reader.read_count(4) : std::nullopt;
    if (!partitions) return std::nullopt;
    AssignedTopicPartitions& topic = topics.emplace_back();
    topic.topic = std::move(*name);
    topic.partitions.reserve(*partitions);
    for (std::size_t p = 0; p < *partitions; ++p) {
      topic.partitions.push_back(static_cast<std::int32_t>(*reader.read_int(4)));
    }
  }
  return topics;
}

void write_int(std::vector<std::uint8_t>& out, std::int64_t value, std::size_t width) {
  for (std::size_t i = width; i-- > 0;) out.push_back(static_cast<std::uint8_t>(value >> (8 * i)));
}

void write_string(std::vector<std::uint8_t>& out, std::string_view text) {
  write_int(out, static_cast<std::int64_t>(text.size()), 2);
  out.insert(out.end(), text.begin(), text.end());
}

// One topic's partitions as an array of {topic, partitions}: empty when there are none.
void write_topic_partitions(std::vector<std::uint8_t>& out, std::string_view topic,
                            const std::vector<std::int32_t>& partitions) {
  write_int(out, partitions.empty() ? 0 : 1, 4);
  if (partitions.empty()) return;
  write_string(out, topic);
  write_int(out, static_cast<std::int64_t>(partitions.size()), 4);
  for (const std::int32_t partition : partitions) write_int(out, partition, 4);
}

constexpr std::int64_t kNullBytes = -1;

}  // namespace

std::optional<std::vector<std::string>> consumer_subscription_topics(
    std::span<const std::uint8_t> metadata) {
  ProtocolBytesReader reader(metadata);
  if (!reader.read_int(2)) return std::nullopt;  // the subscription's version
  return read_topic_names(reader);
}

std::optional<ConsumerSubscription> decode_consumer_subscription(
    std::span<const std::uint8_t> metadata) {
  ProtocolBytesReader reader(metadata);
  const std::optional<std::int64_t> version = reader.read_int(2);
  if (!version || *version < 0) return std::nullopt;
  std::optional<std::vector<std::string>> topics = read_topic_names(reader);
  if (!topics || !reader.skip_nullable_bytes()) return std::nullopt;  // user data
  ConsumerSubscription subscription{.topics = std::move(*topics), .owned_partitions = {}};
  if (*version >= 1) {
    std::optional<std::vector<AssignedTopicPartitions>> owned = read_topic_partitions(reader);
    if (!owned) return std::nullopt;
    subscription.owned_partitions = std::move(*owned);
  }
  return subscription;
}

std::optional<std::vector<AssignedTopicPartitions>> consumer_assignment_partitions(
    std::span<const std::uint8_t> assignment) {
  if (assignment.empty()) return std::vector<AssignedTopicPartitions>{};
  ProtocolBytesReader reader(assignment);
  if (!reader.read_int(2)) return std::nullopt;  // the assignment's version
  return read_topic_partitions(reader);
}

std::vector<std::uint8_t> encode_consumer_subscription(std::string_view topic,
                                                       const std::vector<std::int32_t>& owned) {
  std::vector<std::uint8_t> out;
  write_int(out, 1, 2);  // version
  write_int(out, 1, 4);  // one topic
  write_string(out, topic);
  write_int(out, kNullBytes, 4);  // user data
  write_topic_partitions(out, topic, owned);
  return out;
}

std::vector<std::uint8_t> encode_consumer_assignment(std::string_view topic,
                                                     const std::vector<std::int32_t>& partitions) {
  std::vector<std::uint8_t> out;
  write_int(out, 0, 2);  // version
  write_topic_partitions(out, topic, partitions);
  write_int(out, kNullBytes, 4);  // user data
  return out;
}

}  // namespace kgroups::broker
