// SPDX-License-Identifier: Apache-2.0
//
// ShareAssignor: Kafka's "simple" assignor for share groups (KIP-932), written
// once for the model and kgroupsd (SPEC.md, "Share groups"). Unlike a consumer
// group's assignors it may give one partition to several members, and it keeps
// what members hold:
//   1. each member is hashed (Java's String.hashCode of its id, modulo the
//      partitions it subscribes to) onto one partition;
//   2. partitions that step 1 left without a member and that nobody holds now go
//      round robin to the members (to those subscribed to the partition's
//      topic, when subscriptions differ);
//   3. every member keeps the partitions it holds now (of topics it still
//      subscribes to) and adds what steps 1 and 2 gave it.
// Kafka iterates hash maps where this iterates members in the given order
// (callers pass them sorted by id) and partitions in topic-then-index order, so
// the outcome is Kafka's rules in a fixed order. Stateless.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace kgroups::share {

// Java's String.hashCode of the UTF-8 text (computed over its UTF-16 code units).
[[nodiscard]] std::int32_t java_string_hash(std::string_view text) noexcept;

struct ShareAssignmentInput {
  // Members, sorted by id, unique.
  std::span<const std::string_view> member_ids;
  // Per member: the partitions it subscribes to, as indices into one list of every
  // subscribed partition (topic by topic, partitions ascending), ascending.
  std::span<const std::vector<int>> subscribed;
  // Per member: the partitions it holds now (same indices).
  std::span<const std::vector<int>> current;
  // Per partition index: the index of its topic (same length as the list of partitions).
  std::span<const int> topic_of;
};

// Per member (same order as member_ids): its partitions, ascending.
[[nodiscard]] std::vector<std::vector<int>> assign_share_partitions(
    const ShareAssignmentInput& input);

}  // namespace kgroups::share
