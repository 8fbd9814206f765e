// SPDX-License-Identifier: Apache-2.0
//
// The SyncGroup call of the group coordinator: the leader hands in every member's
// assignment and each member gets its own back. Plain data, no wire format.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "broker/coordinator/group_error.h"

namespace kgroups::broker {

struct MemberAssignment {
  std::string member_id;
  std::vector<std::uint8_t> assignment;  // opaque to the coordinator
};

struct SyncGroupParams {
  std::string group_id;
  std::int32_t generation_id = -1;
  std::string member_id;
  std::optional<std::string> protocol_type;      // SyncGroup v5+: must match the group's
  std::optional<std::string> protocol_name;      // SyncGroup v5+: must match the group's
  std::vector<MemberAssignment> assignments;     // from the leader only; ignored otherwise
  std::optional<std::string> group_instance_id;  // SyncGroup v3+: set by a static member
};

struct SyncGroupResult {
  GroupError error = GroupError::kNone;
  std::string protocol_type;
  std::string protocol_name;
  std::vector<std::uint8_t> assignment;  // this member's bytes from the leader; empty on error
};

// Returns the result of a SyncGroup that failed with `error`.
inline SyncGroupResult sync_error(GroupError error) {
  SyncGroupResult result;
  result.error = error;
  return result;
}

// Called exactly once per sync_group() call, from inside a coordinator call
// (possibly a later one: a follower parks until the leader's SyncGroup arrives).
using SyncGroupCallback = std::function<void(SyncGroupResult)>;

}  // namespace kgroups::broker
