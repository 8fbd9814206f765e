// SPDX-License-Identifier: Apache-2.0
//
// PartitionKey: a topic-partition named by a request, hashable, so that handlers can answer
// each partition once however often a request repeats it (Kafka keeps a request's partitions
// in a map). The topic views the request frame.
// Thread-safe: plain values.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>

namespace kgroups::broker::handlers {

struct PartitionKey {
  std::string_view topic;
  std::int32_t partition = 0;

  bool operator==(const PartitionKey&) const = default;
};

struct PartitionKeyHash {
  std::size_t operator()(const PartitionKey& key) const {
    const std::size_t topic_hash = std::hash<std::string_view>{}(key.topic);
    return topic_hash ^ (std::hash<std::int32_t>{}(key.partition) + 0x9e3779b97f4a7c15ULL +
                         (topic_hash << 6) + (topic_hash >> 2));
  }
};

}  // namespace kgroups::broker::handlers
