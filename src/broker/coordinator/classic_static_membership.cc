// SPDX-License-Identifier: Apache-2.0
#include "broker/coordinator/classic_static_membership.h"

#include <utility>

namespace kgroups::broker {

void StaticMembership::replace(ClassicGroup& group, const std::string& old_member_id,
                               std::string member_id, JoinGroupParams& params,
                               JoinGroupCallback& done) {
  GroupMember* old_member = group.find_member(old_member_id);
  const std::string leader_before = group.leader_id();
  // The old instance may still be running: its parked calls end here, and every call
  // it makes with its old id from now on is fenced.
  context_.complete_join_call(*old_member,
                              join_error(GroupError::kFencedInstanceId, old_member_id));
  context_.complete_sync_call(*old_member, sync_error(GroupError::kFencedInstanceId));
  context_.observe_member_left(
      group, *old_member,
      "static member " + *old_member->group_instance_id + " rejoined as " + member_id);
  GroupMember& member = group.replace_static_member(old_member_id, std::move(member_id));
  std::string reason = "static member " + *member.group_instance_id + " rejoined as " +
                       member.member_id + ", replacing " + old_member_id;
  context_.log(ClassicGroupContext::label(group) + reason + " in state " +
               std::string(group_state_name(group.state())));
  context_.observe_member_joined(group, member);
  group.update_protocols(member, std::move(params.protocols));
  member.session_timeout_ms = params.session_timeout_ms;
  member.rebalance_timeout_ms = params.rebalance_timeout_ms;
  context_.refresh_session(member);
  switch (group.state()) {
    case ClassicGroupState::kStable:
      if (group.select_protocol() == group.protocol_name()) {
        // The member keeps its assignment and gets the current generation. A replaced
        // leader is named by its old id, so it does not run the assignor: a Stable
        // group would not hand out a new assignment. A v9+ client is told it leads
        // and to skip the assignment instead.
        JoinGroupResult result = current_generation_result(group, member);
        result.members.clear();
        if (!params.supports_skip_assignment) {
          result.leader_id = leader_before;
        } else if (group.is_leader(member.member_id)) {
          result.members = group.joined_members();
          result.skip_assignment = true;
        }
        context_.completions.enqueue(
            [callback = std::move(done), result = std::move(result)]() mutable {
              callback(std::move(result));
            });
        return;
      }
      member.join_callback = std::move(done);
      return rebalance_.prepare(group, reason + " with protocols that change the group's choice");
    case ClassicGroupState::kCompletingRebalance:
      // The leader may be assigning to the old member id: start over.
      member.join_callback = std::move(done);
      return rebalance_.prepare(group, reason);
    case ClassicGroupState::kPreparingRebalance:
      member.join_callback = std::move(done);
      return rebalance_.maybe_complete_join(group);
    case ClassicGroupState::kEmpty:
    case ClassicGroupState::kDead:
      // Unreachable: a group with a member is neither.
      return context_.fail_join_call(done, GroupError::kUnknownMemberId, "");
  }
}

}  // namespace kgroups::broker
