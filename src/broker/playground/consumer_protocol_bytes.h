// SPDX-License-Identifier: Apache-2.0
//
// The "consumer" protocol bytes the playground's simulated consumers exchange through the
// group coordinator, as Kafka's Java consumer writes them: the JoinGroup subscription
// (ConsumerProtocolSubscription v1: topics, null user data, owned partitions) and the
// leader's SyncGroup assignment (ConsumerProtocolAssignment v0: partitions by topic, null user
// data). The coordinator and GET /v1/groups/{id} read them as they read a real client's.
// Thread-safe: pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "broker/coordinator/consumer_protocol_assignment.h"

namespace kgroups::broker::playground {

struct ConsumerSubscription {
  std::vector<std::string> topics;
  // What the member owned when it joined (v1+; empty in v0).
  std::vector<AssignedTopicPartitions> owned_partitions;
};

// A v1 subscription to `topic` that owns `owned` of it.
std::vector<std::uint8_t> encode_consumer_subscription(std::string_view topic,
                                                       const std::vector<std::int32_t>& owned);

// The subscription in `metadata` (v0 or later; fields past owned partitions are skipped), or
// nullopt if the bytes are not one.
std::optional<ConsumerSubscription> decode_consumer_subscription(
    std::span<const std::uint8_t> metadata);

// A v0 assignment of `partitions` of `topic` (no topic entry when `partitions` is empty).
std::vector<std::uint8_t> encode_consumer_assignment(std::string_view topic,
                                                     const std::vector<std::int32_t>& partitions);

}  // namespace kgroups::broker::playground
