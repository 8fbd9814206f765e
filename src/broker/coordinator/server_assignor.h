// SPDX-License-Identifier: Apache-2.0
//
// ServerAssignor: the plug point for the consumer-group coordinator's server-side
// assignors (KIP-848), which compute a group's target assignment from its members'
// subscriptions and the subscribed topics' partition counts. A member picks one by
// name (ConsumerGroupHeartbeat's server_assignor); the group uses the name most of
// its members ask for, `uniform` by default. An implementation carries no state
// between calls, so one instance serves every group; thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "broker/coordinator/consumer_assignment.h"

namespace kgroups::broker {

struct AssignmentMember {
  std::string member_id;
  std::vector<TopicId> subscribed_topic_ids;  // sorted, unique, each in partition_counts
  // The member's current target assignment (what stickiness keeps); never null, kept
  // alive by the caller for the call. May name topics or partitions that no longer
  // exist or that the member no longer subscribes to.
  const ConsumerAssignment* current_target = nullptr;
};

struct AssignmentSpec {
  std::vector<AssignmentMember> members;             // sorted by member id, unique
  std::map<TopicId, std::int32_t> partition_counts;  // each subscribed topic, >= 1
};

class ServerAssignor {
 public:
  virtual ~ServerAssignor() = default;

  // The name members ask for ("uniform", "range").
  [[nodiscard]] virtual std::string_view name() const noexcept = 0;

  // Returns one assignment per spec.members entry, in the same order. Every
  // partition of a topic with at least one subscriber goes to exactly one of its
  // subscribers; members get only topics they subscribe to.
  [[nodiscard]] virtual std::vector<ConsumerAssignment> assign(
      const AssignmentSpec& spec) const = 0;
};

// The assignor a group uses when no member names one.
inline constexpr std::string_view kDefaultServerAssignor = "uniform";

// Returns the assignor of that name, or nullptr if the coordinator has none.
[[nodiscard]] const ServerAssignor* find_server_assignor(std::string_view name);

// Returns the names of every assignor, in a fixed order (for error messages).
[[nodiscard]] std::vector<std::string_view> server_assignor_names();

}  // namespace kgroups::broker
