// SPDX-License-Identifier: Apache-2.0
//
// TopicSelection: what `reset-offsets --topic` names, in kafka-consumer-groups.sh's form:
// "TOPIC" (every partition) or "TOPIC:P,P,..." (those partitions). Kafka's topic names
// cannot hold ':', so the last ':' separates the partitions. Value type; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kgroups::cli {

struct TopicSelection {
  std::string topic;
  std::vector<std::int32_t> partitions;  // empty: every partition of the topic

  bool operator==(const TopicSelection&) const = default;
};

// Parses "TOPIC" or "TOPIC:P,P,...". Returns nullopt for an empty topic, an empty or
// negative partition, or a partition that is not a number.
std::optional<TopicSelection> parse_topic_selection(std::string_view text);

}  // namespace kgroups::cli
