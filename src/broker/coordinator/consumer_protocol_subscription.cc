// SPDX-License-Identifier: Apache-2.0
#include "broker/coordinator/consumer_protocol_subscription.h"

#include <cstddef>

namespace kgroups::broker {

std::optional<std::vector<std::string>> consumer_subscription_topics(
    std::span<const std::uint8_t> metadata) {
  std::size_t at = 0;
  const auto read_be = [&](std::size_t bytes) -> std::optional<std::int64_t> {
    if (metadata.size() - at < bytes) return std::nullopt;
    std::uint64_t value = 0;
    for (std::size_t i = 0; i < bytes; ++i) value = (value << 8) | metadata[at + i];
    at += bytes;
    // Sign-extend the field to 64 bits.
    const unsigned shift = 64 - static_cast<unsigned>(bytes) * 8;
    return static_cast<std::int64_t>(value << shift) >> shift;
  };
  if (!read_be(2)) return std::nullopt;  // the subscription's version
  const std::optional<std::int64_t> count = read_be(4);
  // Each name takes at least its two length bytes.
  if (!count || *count < 0 || static_cast<std::uint64_t>(*count) > (metadata.size() - at) / 2) {
    return std::nullopt;
  }
  std::vector<std::string> topics;
  topics.reserve(static_cast<std::size_t>(*count));
  for (std::int64_t i = 0; i < *count; ++i) {
    const std::optional<std::int64_t> length = read_be(2);
    if (!length || *length < 0 || metadata.size() - at < static_cast<std::size_t>(*length)) {
      return std::nullopt;
    }
    topics.emplace_back(reinterpret_cast<const char*>(metadata.data() + at),
                        static_cast<std::size_t>(*length));
    at += static_cast<std::size_t>(*length);
  }
  return topics;
}

}  // namespace kgroups::broker
