// SPDX-License-Identifier: Apache-2.0
//
// GroupCoordinator's limits: the checks every call makes before it changes anything,
// so a client can make the coordinator keep only so many groups, members and bytes
// (CoordinatorConfig). Each check costs O(1) or the size of the request.
#include "broker/coordinator/group_coordinator.h"
#include "broker/coordinator/stored_bytes.h"

namespace kgroups::broker {
namespace {

// Whether a group's metadata bytes going from `current` to `next` would take it past
// `limit`. A change that does not grow the group is always allowed.
bool exceeds_group_metadata(std::size_t current, std::size_t next, std::size_t limit) {
  return next > current && next > limit;
}

}  // namespace

bool GroupCoordinator::valid_group_id(std::string_view group_id) const {
  return !group_id.empty() && within_id_length(group_id);
}

bool GroupCoordinator::within_id_length(std::string_view id) const {
  return id.size() <= context_.config.max_id_length;
}

bool GroupCoordinator::exceeds_stored_bytes(std::size_t growth_bytes) const {
  return growth_bytes > 0 && context_.config.max_stored_bytes > 0 &&
         stored_bytes() + growth_bytes > context_.config.max_stored_bytes;
}

GroupError GroupCoordinator::admit_new_group() const {
  return groups_.size() >= context_.config.max_groups ? GroupError::kPolicyViolation
                                                      : GroupError::kNone;
}

GroupError GroupCoordinator::admit_new_member(const ClassicGroup* group, std::string_view group_id,
                                              const GroupMember& member, bool pending) const {
  const std::size_t count = group == nullptr ? 0 : group->members_and_pending_count();
  if (count >= context_.config.max_group_size) return GroupError::kGroupMaxSizeReached;
  const std::size_t metadata_bytes = group == nullptr ? 0 : group->metadata_bytes();
  if (!pending && exceeds_group_metadata(
                      metadata_bytes, metadata_bytes + protocols_metadata_bytes(member.protocols),
                      context_.config.max_group_metadata_bytes)) {
    return GroupError::kGroupMaxSizeReached;
  }
  std::size_t growth =
      pending ? pending_member_bytes(member.member_id) : member_entry_bytes(member);
  if (group == nullptr) growth += group_entry_bytes(group_id);
  if (!pending && (group == nullptr || group->members().empty())) {
    growth += member.protocol_type.size();
  }
  return exceeds_stored_bytes(growth) ? GroupError::kCoordinatorLoadInProgress : GroupError::kNone;
}

GroupError GroupCoordinator::admit_pending_member(const ClassicGroup& group,
                                                  const GroupMember& member) const {
  const std::size_t metadata_bytes = group.metadata_bytes();
  if (exceeds_group_metadata(metadata_bytes,
                             metadata_bytes + protocols_metadata_bytes(member.protocols),
                             context_.config.max_group_metadata_bytes)) {
    return GroupError::kGroupMaxSizeReached;
  }
  std::size_t growth = member_entry_bytes(member);
  if (group.members().empty()) growth += member.protocol_type.size();
  const std::size_t freed = pending_member_bytes(member.member_id);
  growth = growth > freed ? growth - freed : 0;
  return exceeds_stored_bytes(growth) ? GroupError::kCoordinatorLoadInProgress : GroupError::kNone;
}

GroupError GroupCoordinator::admit_protocols(const ClassicGroup& group, const GroupMember& member,
                                             const std::vector<GroupProtocol>& protocols) const {
  const std::size_t metadata_bytes = group.metadata_bytes();
  const std::size_t next_metadata_bytes = metadata_bytes -
                                          protocols_metadata_bytes(member.protocols) +
                                          protocols_metadata_bytes(protocols);
  if (exceeds_group_metadata(metadata_bytes, next_metadata_bytes,
                             context_.config.max_group_metadata_bytes)) {
    return GroupError::kGroupMaxSizeReached;
  }
  const std::size_t old_bytes = protocols_bytes(member.protocols);
  const std::size_t new_bytes = protocols_bytes(protocols);
  return exceeds_stored_bytes(new_bytes > old_bytes ? new_bytes - old_bytes : 0)
             ? GroupError::kCoordinatorLoadInProgress
             : GroupError::kNone;
}

GroupError GroupCoordinator::admit_static_replacement(
    const ClassicGroup& group, const GroupMember& member, std::string_view new_member_id,
    const std::vector<GroupProtocol>& protocols) const {
  if (GroupError error = admit_protocols(group, member, protocols); error != GroupError::kNone) {
    return error;
  }
  const std::size_t old_bytes =
      member_id_copies(member) * member.member_id.size() + protocols_bytes(member.protocols);
  const std::size_t new_bytes =
      member_id_copies(member) * new_member_id.size() + protocols_bytes(protocols);
  return exceeds_stored_bytes(new_bytes > old_bytes ? new_bytes - old_bytes : 0)
             ? GroupError::kCoordinatorLoadInProgress
             : GroupError::kNone;
}

}  // namespace kgroups::broker
