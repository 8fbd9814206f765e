// SPDX-License-Identifier: Apache-2.0
//
// GroupCoordinator's SyncGroup (Kafka's doSyncGroup): followers park until the
// leader's assignment arrives; after that, in Stable, everyone gets theirs at once.
#include <utility>

#include "broker/coordinator/group_coordinator.h"

namespace kgroups::broker {

void GroupCoordinator::sync_group(SyncGroupParams params, SyncGroupCallback done) {
  CallScope scope(*this);
  auto fail = [&](GroupError error) {
    enqueue([callback = std::move(done), error] { callback(sync_error(error)); });
  };
  if (params.group_id.empty()) return fail(GroupError::kInvalidGroupId);
  Group* group = find_group(params.group_id);
  if (group == nullptr) return fail(GroupError::kUnknownMemberId);
  GroupMember* member = group->find_member(params.member_id);
  if (member == nullptr) return fail(GroupError::kUnknownMemberId);
  if (params.generation_id != group->generation_id()) return fail(GroupError::kIllegalGeneration);
  if ((params.protocol_type && *params.protocol_type != group->protocol_type()) ||
      (params.protocol_name && *params.protocol_name != group->protocol_name())) {
    return fail(GroupError::kInconsistentGroupProtocol);
  }
  switch (group->state()) {
    case GroupState::kEmpty:
    case GroupState::kDead:
      return fail(GroupError::kUnknownMemberId);
    case GroupState::kPreparingRebalance:
      return fail(GroupError::kRebalanceInProgress);
    case GroupState::kCompletingRebalance:
      break;
    case GroupState::kStable: {
      group->mark_synced(member->member_id);
      refresh_session(*member);
      SyncGroupResult result;
      result.protocol_type = group->protocol_type();
      result.protocol_name = group->protocol_name();
      result.assignment = member->assignment;
      enqueue([callback = std::move(done), result = std::move(result)]() mutable {
        callback(std::move(result));
      });
      return;
    }
  }
  // CompletingRebalance: park, and if this is the leader, store and hand out the
  // assignments.
  complete_sync_call(*member, sync_error(GroupError::kRebalanceInProgress));
  member->sync_callback = std::move(done);
  group->mark_synced(member->member_id);
  if (!group->is_leader(member->member_id)) return;
  for (auto& [id, each] : group->members()) each.assignment.clear();
  for (MemberAssignment& assignment : params.assignments) {
    if (GroupMember* target = group->find_member(assignment.member_id); target != nullptr) {
      target->assignment = std::move(assignment.assignment);
    }
  }
  group->transition_to(GroupState::kStable);
  log("group \"" + group->group_id() + "\": generation " + std::to_string(group->generation_id()) +
      " is stable: leader " + member->member_id + " sent the assignment");
  propagate_assignment(*group);
}

void GroupCoordinator::propagate_assignment(Group& group) {
  for (auto& [id, member] : group.members()) {
    if (!member.awaiting_sync()) continue;
    SyncGroupResult result;
    result.protocol_type = group.protocol_type();
    result.protocol_name = group.protocol_name();
    result.assignment = member.assignment;
    complete_sync_call(member, std::move(result));
    refresh_session(member);
  }
}

}  // namespace kgroups::broker
