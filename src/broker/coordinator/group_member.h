// SPDX-License-Identifier: Apache-2.0
//
// GroupMember: one member of a group as the coordinator tracks it: its assignors,
// timeouts, assignment, and the JoinGroup/SyncGroup calls parked on it.
// Not thread-safe; owned by its ClassicGroup.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "broker/coordinator/clock.h"
#include "broker/coordinator/join_group.h"
#include "broker/coordinator/sync_group.h"

namespace kgroups::broker {

struct GroupMember {
  std::string member_id;
  std::optional<std::string> group_instance_id;  // set for a static member
  std::string client_id;
  std::string client_host;
  std::string protocol_type;
  std::vector<GroupProtocol> protocols;  // in the member's order of preference
  std::int32_t session_timeout_ms = 0;
  std::int32_t rebalance_timeout_ms = 0;
  std::vector<std::uint8_t> assignment;  // from the leader's last SyncGroup
  std::uint64_t join_order = 0;          // set by ClassicGroup::add_member; lower joined earlier
  bool is_new = true;                    // has not yet received a successful JoinGroup result
  JoinGroupCallback join_callback;       // set while a JoinGroup is parked
  SyncGroupCallback sync_callback;       // set while a SyncGroup is parked
  // When a new member's join, or a live member's session, runs out.
  Clock::TimePoint session_deadline{};

  [[nodiscard]] bool awaiting_join() const { return static_cast<bool>(join_callback); }
  [[nodiscard]] bool awaiting_sync() const { return static_cast<bool>(sync_callback); }

  // Returns the member's metadata for `protocol_name`, or nullptr if it does not
  // support it.
  [[nodiscard]] const std::vector<std::uint8_t>* metadata_for(
      std::string_view protocol_name) const {
    for (const GroupProtocol& protocol : protocols) {
      if (protocol.name == protocol_name) return &protocol.metadata;
    }
    return nullptr;
  }

  // Returns when the coordinator must drop this member, or nullopt while it waits on
  // the coordinator: a member parked in JoinGroup or SyncGroup satisfies its
  // heartbeats (Kafka's MemberMetadata.hasSatisfiedHeartbeat), except a new member,
  // which may only wait new_member_join_timeout_ms for its first join.
  [[nodiscard]] std::optional<Clock::TimePoint> expiry() const {
    if (!is_new && (awaiting_join() || awaiting_sync())) return std::nullopt;
    return session_deadline;
  }
};

}  // namespace kgroups::broker
