// SPDX-License-Identifier: Apache-2.0
//
// TopicId: a topic's 16-byte UUID, as Kafka's newer APIs (ConsumerGroupHeartbeat,
// ConsumerGroupDescribe) name topics. Value type; thread-safe as any value.
#pragma once

#include <array>
#include <cstdint>
#include <string>

namespace kgroups::broker {

using TopicId = std::array<std::uint8_t, 16>;

// Returns the id as 32 lowercase hex digits, for logs and test output.
inline std::string topic_id_hex(const TopicId& id) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string text;
  text.reserve(32);
  for (std::uint8_t byte : id) {
    text.push_back(kDigits[byte >> 4]);
    text.push_back(kDigits[byte & 0x0f]);
  }
  return text;
}

}  // namespace kgroups::broker
