// SPDX-License-Identifier: Apache-2.0
//
// The "consumer" protocol's bytes, in one place: the subscription a classic member sends as
// its JoinGroup protocol metadata (ConsumerProtocolSubscription v0-3: int16 version, an
// int32-counted array of int16-length topic names, nullable user data, then v1+ the owned
// partitions, v2+ the generation, v3+ the rack) and the assignment a leader sends in
// SyncGroup (ConsumerProtocolAssignment v0-3: int16 version, an int32-counted array of
// {topic, int32-counted array of int32 partitions}, then user data). The coordinator reads
// subscriptions for OffsetDelete (GROUP_SUBSCRIBED_TO_TOPIC) and assignments for its
// observers; GET /v1/groups/{id} and the kgroups CLI read assignments; the playground's
// simulated consumers write both, as Kafka's Java consumer does, and read subscriptions.
// Readers check every count and length against the bytes left, so hostile bytes cost no more
// memory than they hold. A library of its own (kgroups_consumer_protocol), so the CLI does
// not compile the coordinator.
// Thread-safe: pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace kgroups::broker {

struct AssignedTopicPartitions {
  std::string topic;
  std::vector<std::int32_t> partitions;  // as the bytes list them
  bool operator==(const AssignedTopicPartitions&) const = default;
};

struct ConsumerSubscription {
  std::vector<std::string> topics;
  // What the member owned when it joined (v1+; empty in v0).
  std::vector<AssignedTopicPartitions> owned_partitions;
};

// The subscribed topic names; what follows them is not read. nullopt if the bytes do not hold
// a version and a topic list (too short, a negative count or length, a count larger than the
// bytes hold).
std::optional<std::vector<std::string>> consumer_subscription_topics(
    std::span<const std::uint8_t> metadata);

// The subscription's topics and owned partitions (user data and later fields skipped);
// nullopt if the bytes end or break before the owned partitions (of a v1+ subscription) do.
std::optional<ConsumerSubscription> decode_consumer_subscription(
    std::span<const std::uint8_t> metadata);

// The assigned partitions by topic, in the order the bytes list them; empty for empty bytes
// (no assignment yet); user data is not read. nullopt if the bytes do not hold a version and
// the partitions.
std::optional<std::vector<AssignedTopicPartitions>> consumer_assignment_partitions(
    std::span<const std::uint8_t> assignment);

// A v1 subscription to `topic` that owns `owned` of it, with null user data.
std::vector<std::uint8_t> encode_consumer_subscription(std::string_view topic,
                                                       const std::vector<std::int32_t>& owned);

// A v0 assignment of `partitions` of `topic` (no topic entry when `partitions` is empty), with
// null user data.
std::vector<std::uint8_t> encode_consumer_assignment(std::string_view topic,
                                                     const std::vector<std::int32_t>& partitions);

}  // namespace kgroups::broker
