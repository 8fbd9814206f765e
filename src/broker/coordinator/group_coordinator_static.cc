// SPDX-License-Identifier: Apache-2.0
//
// GroupCoordinator's JoinGroup for static members (KIP-345) with an empty member id
// (Kafka's doStaticNewMemberJoinGroup and updateStaticMemberAndRebalance): a new
// instance id joins like a new dynamic member, without MEMBER_ID_REQUIRED; a known
// one replaces its old member id in place, which lets a restarted member take its
// partitions back without a rebalance while the group is Stable.
#include <utility>

#include "broker/coordinator/group_coordinator.h"

namespace kgroups::broker {
namespace {

std::string group_label(const ClassicGroup& group) {
  return "group \"" + group.group_id() + "\": ";
}

}  // namespace

void GroupCoordinator::join_new_static_member(ClassicGroup* group, JoinGroupParams& params,
                                              JoinGroupCallback& done) {
  const std::string* bound =
      group == nullptr ? nullptr : group->static_member_id(*params.group_instance_id);
  if (bound == nullptr) return join_new_member(group, params, done);
  replace_static_member(*group, std::string(*bound), params, done);
}

void GroupCoordinator::replace_static_member(ClassicGroup& group, const std::string& old_member_id,
                                             JoinGroupParams& params, JoinGroupCallback& done) {
  auto fail = [&](GroupError error) {
    completions_.enqueue([callback = std::move(done), error] { callback(join_error(error, "")); });
  };
  GroupMember* old_member = group.find_member(old_member_id);
  if (!group.supports_protocols(params.protocol_type, params.protocols, old_member_id)) {
    return fail(GroupError::kInconsistentGroupProtocol);
  }
  std::string member_id = new_member_id(*params.group_instance_id);
  if (GroupError error = admit_static_replacement(group, *old_member, member_id, params.protocols);
      error != GroupError::kNone) {
    return fail(error);
  }
  const std::string leader_before = group.leader_id();
  // The old instance may still be running: its parked calls end here, and every call
  // it makes with its old id from now on is fenced.
  complete_join_call(*old_member, join_error(GroupError::kFencedInstanceId, old_member_id));
  complete_sync_call(*old_member, sync_error(GroupError::kFencedInstanceId));
  observe_member_left(
      group, *old_member,
      "static member " + *old_member->group_instance_id + " rejoined as " + member_id);
  GroupMember& member = group.replace_static_member(old_member_id, std::move(member_id));
  std::string reason = "static member " + *member.group_instance_id + " rejoined as " +
                       member.member_id + ", replacing " + old_member_id;
  log(group_label(group) + reason + " in state " + std::string(group_state_name(group.state())));
  observe_member_joined(group, member);
  group.update_protocols(member, std::move(params.protocols));
  member.session_timeout_ms = params.session_timeout_ms;
  member.rebalance_timeout_ms = params.rebalance_timeout_ms;
  refresh_session(member);
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
        completions_.enqueue([callback = std::move(done), result = std::move(result)]() mutable {
          callback(std::move(result));
        });
        return;
      }
      member.join_callback = std::move(done);
      return prepare_rebalance(group, reason + " with protocols that change the group's choice");
    case ClassicGroupState::kCompletingRebalance:
      // The leader may be assigning to the old member id: start over.
      member.join_callback = std::move(done);
      return prepare_rebalance(group, reason);
    case ClassicGroupState::kPreparingRebalance:
      member.join_callback = std::move(done);
      return maybe_complete_join(group);
    case ClassicGroupState::kEmpty:
    case ClassicGroupState::kDead:
      return fail(GroupError::kUnknownMemberId);  // unreachable: a group with a member is neither
  }
}

}  // namespace kgroups::broker
