// SPDX-License-Identifier: Apache-2.0
//
// GroupCoordinator's SyncGroup (Kafka's doSyncGroup): followers park until the
// leader's assignment arrives; after that, in Stable, everyone gets theirs at once.
// A leader's assignment the group cannot keep fails the whole generation, as Kafka
// fails it when storing the group fails (resetAndPropagateAssignmentError).
#include <unordered_set>
#include <utility>

#include "broker/coordinator/group_coordinator.h"

namespace kgroups::broker {
namespace {

// Returns the bytes the assignments for the group's members add up to, each member
// counted once, with its last entry (the one that is kept).
std::size_t assignment_bytes(const ClassicGroup& group,
                             const std::vector<MemberAssignment>& assignments) {
  std::size_t bytes = 0;
  std::unordered_set<std::string_view> seen;
  for (std::size_t i = assignments.size(); i-- > 0;) {
    const MemberAssignment& entry = assignments[i];
    if (group.find_member(entry.member_id) == nullptr) continue;
    if (seen.insert(entry.member_id).second) bytes += entry.assignment.size();
  }
  return bytes;
}

}  // namespace

void GroupCoordinator::sync_group(SyncGroupParams params, SyncGroupCallback done) {
  CallScope scope(*this);
  auto fail = [&](GroupError error) {
    context_.completions.enqueue(
        [callback = std::move(done), error] { callback(sync_error(error)); });
  };
  if (!valid_group_id(params.group_id)) return fail(GroupError::kInvalidGroupId);
  if (!within_id_length(params.member_id)) return fail(GroupError::kUnknownMemberId);
  ClassicGroup* group = groups_.find_to_change(params.group_id);
  if (group == nullptr) return fail(GroupError::kUnknownMemberId);
  if (GroupError error = group->check_member(params.member_id, params.group_instance_id);
      error != GroupError::kNone) {
    return fail(error);
  }
  GroupMember* member = group->find_member(params.member_id);
  if (params.generation_id != group->generation_id()) return fail(GroupError::kIllegalGeneration);
  if ((params.protocol_type && *params.protocol_type != group->protocol_type()) ||
      (params.protocol_name && *params.protocol_name != group->protocol_name())) {
    return fail(GroupError::kInconsistentGroupProtocol);
  }
  switch (group->state()) {
    case ClassicGroupState::kEmpty:
    case ClassicGroupState::kDead:
      return fail(GroupError::kUnknownMemberId);
    case ClassicGroupState::kPreparingRebalance:
      return fail(GroupError::kRebalanceInProgress);
    case ClassicGroupState::kCompletingRebalance:
      break;
    case ClassicGroupState::kStable: {
      group->mark_synced(member->member_id);
      context_.refresh_session(*member);
      SyncGroupResult result;
      result.protocol_type = group->protocol_type();
      result.protocol_name = group->protocol_name();
      result.assignment = member->assignment;
      context_.completions.enqueue(
          [callback = std::move(done), result = std::move(result)]() mutable {
            callback(std::move(result));
          });
      return;
    }
  }
  // CompletingRebalance: park, and if this is the leader, store and hand out the
  // assignments. A leader whose assignments would take stored_bytes() past the cap is
  // answered at once and changes nothing; it may retry. (COORDINATOR_NOT_AVAILABLE,
  // not COORDINATOR_LOAD_IN_PROGRESS, which clients treat as fatal in SyncGroup.)
  const bool leader = group->is_leader(member->member_id);
  const std::size_t new_assignment_bytes =
      leader ? assignment_bytes(*group, params.assignments) : 0;
  const std::size_t metadata_bytes =
      group->metadata_bytes() - group->assignment_bytes() + new_assignment_bytes;
  const bool too_large = leader && metadata_bytes > context_.config.max_group_metadata_bytes;
  if (leader && !too_large &&
      exceeds_stored_bytes(new_assignment_bytes > group->assignment_bytes()
                               ? new_assignment_bytes - group->assignment_bytes()
                               : 0)) {
    return fail(GroupError::kCoordinatorNotAvailable);
  }
  context_.complete_sync_call(*member, sync_error(GroupError::kRebalanceInProgress));
  member->sync_callback = std::move(done);
  group->mark_synced(member->member_id);
  if (!leader) return;
  if (too_large) {
    return fail_assignment(*group, GroupError::kGroupMaxSizeReached,
                           "the assignment of leader " + member->member_id + " takes " +
                               std::to_string(metadata_bytes) + " bytes with the metadata, over " +
                               std::to_string(context_.config.max_group_metadata_bytes));
  }
  group->clear_assignments();
  for (MemberAssignment& assignment : params.assignments) {
    if (GroupMember* target = group->find_member(assignment.member_id); target != nullptr) {
      group->set_assignment(*target, std::move(assignment.assignment));
    }
  }
  group->transition_to(ClassicGroupState::kStable);
  context_.log("group \"" + group->group_id() + "\": generation " +
               std::to_string(group->generation_id()) + " is stable: leader " + member->member_id +
               " sent the assignment");
  context_.observe_rebalance_completed(*group);
  propagate_assignment(*group);
}

void GroupCoordinator::propagate_assignment(ClassicGroup& group) {
  for (auto& [id, member] : group.members()) {
    if (!member.awaiting_sync()) continue;
    SyncGroupResult result;
    result.protocol_type = group.protocol_type();
    result.protocol_name = group.protocol_name();
    result.assignment = member.assignment;
    context_.complete_sync_call(member, std::move(result));
    context_.refresh_session(member);
  }
}

void GroupCoordinator::fail_assignment(ClassicGroup& group, GroupError error,
                                       const std::string& reason) {
  group.clear_assignments();
  for (auto& [id, member] : group.members()) context_.complete_sync_call(member, sync_error(error));
  rebalance_.prepare(group, reason);
}

}  // namespace kgroups::broker
