// SPDX-License-Identifier: Apache-2.0
//
// GroupCoordinator's side of a coordinator move: unloading a group when its __consumer_offsets
// partition's leadership goes (Kafka's GroupMetadataManager.removeGroupsForPartition and
// GroupCoordinator.onResignation) and loading one read back from the partition's log (Kafka's
// GroupMetadata.loadGroup and onGroupLoaded: a group with members comes back Stable in its
// generation, every member's session starting afresh).
#include <string>
#include <utility>
#include <vector>

#include "broker/coordinator/group_coordinator.h"
#include "broker/coordinator/stored_bytes.h"

namespace kgroups::broker {

bool GroupCoordinator::unload_group(std::string_view group_id) {
  CallScope scope(*this);
  ClassicGroup* group = groups_.find_to_change(group_id);
  if (group == nullptr) return false;
  for (auto& [member_id, member] : group->members()) {
    context_.complete_join_call(member, join_error(GroupError::kNotCoordinator, member.member_id));
    context_.complete_sync_call(member, sync_error(GroupError::kNotCoordinator));
  }
  group->transition_to(ClassicGroupState::kDead);
  context_.log("group \"" + group->group_id() + "\" unloaded: its coordinator moved");
  groups_.erase(std::string(group_id));  // the view may point into the erased group's id
  return true;
}

GroupError GroupCoordinator::load_group(LoadedClassicGroup loaded) {
  CallScope scope(*this);
  if (!valid_group_id(loaded.group_id) || groups_.find(loaded.group_id) != nullptr) {
    return GroupError::kInvalidGroupId;
  }
  if (GroupError error = admit_new_group(); error != GroupError::kNone) return error;
  if (loaded.members.size() > context_.config.max_group_size) {
    return GroupError::kGroupMaxSizeReached;
  }
  std::size_t growth = group_entry_bytes(loaded.group_id) + loaded.protocol_type.size();
  std::size_t metadata_bytes = 0;
  for (GroupMember& member : loaded.members) {
    member.protocol_type = loaded.protocol_type;
    growth += member_entry_bytes(member);
    metadata_bytes += protocols_metadata_bytes(member.protocols) + member.assignment.size();
  }
  if (metadata_bytes > context_.config.max_group_metadata_bytes) {
    return GroupError::kGroupMaxSizeReached;
  }
  if (exceeds_stored_bytes(growth)) return GroupError::kCoordinatorLoadInProgress;

  ClassicGroup& group = groups_.create(loaded.group_id);
  for (GroupMember& member : loaded.members) {
    member.is_new = false;
    context_.refresh_session(member);
    group.add_member(std::move(member));
  }
  group.load_generation(loaded.generation_id, std::move(loaded.protocol_name), loaded.leader_id);
  context_.log("group \"" + group.group_id() + "\" loaded in generation " +
               std::to_string(group.generation_id()) + " with " +
               std::to_string(group.members().size()) + " member(s)");
  return GroupError::kNone;
}

}  // namespace kgroups::broker
