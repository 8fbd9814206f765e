// SPDX-License-Identifier: Apache-2.0
//
// The JoinGroup call of the group coordinator: what a member sends and what it
// gets back once the join phase of a rebalance completes. Plain data, no wire format;
// the broker's JoinGroup handler maps these to and from protocol messages.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "broker/coordinator/group_error.h"

namespace kgroups::broker {

// One assignor a member supports ("range", "roundrobin", ...) with the member's
// subscription bytes for it, opaque to the coordinator.
struct GroupProtocol {
  std::string name;
  std::vector<std::uint8_t> metadata;

  bool operator==(const GroupProtocol&) const = default;
};

struct JoinGroupParams {
  std::string group_id;
  std::string member_id;  // "" for a member joining for the first time
  std::string client_id;
  std::string client_host;
  std::int32_t session_timeout_ms = 0;
  std::int32_t rebalance_timeout_ms = -1;  // < 0: use session_timeout_ms (JoinGroup v0)
  std::string protocol_type;               // "consumer" for consumer groups
  std::vector<GroupProtocol> protocols;    // in the member's order of preference
  // JoinGroup v4+ (KIP-394): a member with an empty id first gets MEMBER_ID_REQUIRED
  // and its id, and must join again with that id.
  // Static members (JoinGroup v5+) never get MEMBER_ID_REQUIRED.
  bool require_known_member_id = false;
  // JoinGroup v5+ (KIP-345): set for a static member, which keeps its place in the
  // group (and its assignment) across restarts until its session times out.
  std::optional<std::string> group_instance_id;
  // JoinGroup v9+: the client understands skip_assignment in the result.
  bool supports_skip_assignment = false;
};

// A member as the leader sees it in its JoinGroup result: the metadata is the
// member's bytes for the protocol the group selected.
struct JoinedMember {
  std::string member_id;
  std::vector<std::uint8_t> metadata;
  std::optional<std::string> group_instance_id;  // set for a static member

  bool operator==(const JoinedMember&) const = default;
};

struct JoinGroupResult {
  GroupError error = GroupError::kNone;
  std::int32_t generation_id = -1;  // -1 on error
  std::string protocol_type;
  std::string protocol_name;  // the assignor the group selected
  std::string leader_id;
  std::string member_id;  // the member's id; with MEMBER_ID_REQUIRED, the id to rejoin with
  std::vector<JoinedMember> members;  // every member, in the leader's result only
  // JoinGroup v9+: a static leader replaced in a Stable group is told it leads but
  // must not assign (the group keeps its assignment).
  bool skip_assignment = false;
};

// Returns the result of a JoinGroup that failed with `error`.
inline JoinGroupResult join_error(GroupError error, std::string member_id) {
  JoinGroupResult result;
  result.error = error;
  result.member_id = std::move(member_id);
  return result;
}

// Called exactly once per join_group() call, from inside a coordinator call
// (possibly a later one: the join parks until the rebalance's join phase ends).
using JoinGroupCallback = std::function<void(JoinGroupResult)>;

}  // namespace kgroups::broker
