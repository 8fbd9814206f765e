// SPDX-License-Identifier: Apache-2.0
//
// ConsumerGroupMember: one member of a consumer group (KIP-848) as the coordinator
// keeps it: identity, subscription, epochs, and where it stands in reconciling
// towards its target assignment. A value type; its ConsumerGroup keeps the indexes
// (partition epochs, static members) in step when it is replaced.
// Not thread-safe; owned by its ConsumerGroup.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "broker/coordinator/clock.h"
#include "broker/coordinator/consumer_assignment.h"

namespace kgroups::broker {

// Where a member stands in reconciling towards its target assignment (Kafka's
// MemberState).
enum class MemberState : std::uint8_t {
  // Owns exactly its target at the target assignment epoch, or waits for nothing.
  kStable,
  // Must first revoke partitions_pending_revocation; keeps its epoch until it reports
  // owned partitions without them.
  kUnrevokedPartitions,
  // At the target epoch, but some target partitions are still owned by other members
  // at older epochs; it gets them once they are released.
  kUnreleasedPartitions,
};

// Kafka's name of the state ("STABLE"), for logs and test output.
std::string_view member_state_name(MemberState state);

// What a member is apart from its partitions: what a heartbeat changes before reconciling,
// copied at a cost that does not grow with the member's partitions.
struct ConsumerGroupMemberDetails {
  std::string member_id;
  std::optional<std::string> instance_id;  // set for static members
  std::optional<std::string> rack_id;
  std::string client_id;
  std::string client_host;
  std::int32_t rebalance_timeout_ms = -1;  // how long it may take to revoke
  std::optional<std::string> server_assignor;
  std::vector<std::string> subscribed_topic_names;  // sorted, unique

  std::int32_t member_epoch = 0;  // -2 while a static member is away
  std::int32_t previous_member_epoch = 0;
  MemberState state = MemberState::kStable;

  // Timers, each nullopt when not armed.
  std::optional<Clock::TimePoint> session_deadline;    // removed when reached
  std::optional<Clock::TimePoint> rebalance_deadline;  // removed if still revoking then
};

struct ConsumerGroupMember : ConsumerGroupMemberDetails {
  ConsumerAssignment assigned_partitions;            // what the member may own now
  ConsumerAssignment partitions_pending_revocation;  // what it must give up first

  // Returns whether the member is done reconciling towards the epoch's target.
  [[nodiscard]] bool reconciled_to(std::int32_t target_assignment_epoch) const {
    return state == MemberState::kStable && member_epoch == target_assignment_epoch;
  }

  // Returns a copy of its details with both sets of partitions empty
  // (ConsumerGroup::update_member_details keeps the member's own).
  [[nodiscard]] ConsumerGroupMember without_partitions() const {
    ConsumerGroupMember copy;
    static_cast<ConsumerGroupMemberDetails&>(copy) = *this;
    return copy;
  }

  // Moves to `epoch`, remembering the one it leaves.
  void update_member_epoch(std::int32_t epoch) {
    previous_member_epoch = member_epoch;
    member_epoch = epoch;
  }
};

}  // namespace kgroups::broker
