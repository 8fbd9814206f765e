// SPDX-License-Identifier: Apache-2.0
//
// GroupCoordinator's JoinGroup paths (Kafka's doNewMemberJoinGroup and
// doCurrentMemberJoinGroup): validate, check the limits, add or update the member,
// start or advance the rebalance. The join itself completes in ClassicRebalance
// (classic_rebalance.h).
#include <utility>

#include "broker/coordinator/group_coordinator.h"

namespace kgroups::broker {
void GroupCoordinator::join_group(JoinGroupParams params, JoinGroupCallback done) {
  CallScope scope(*this);
  // A member id too long to keep is not echoed back either.
  const bool member_id_fits = within_id_length(params.member_id);
  if (!valid_group_id(params.group_id)) {
    return context_.fail_join_call(done, GroupError::kInvalidGroupId,
                                   member_id_fits ? params.member_id : "");
  }
  if (!member_id_fits) return context_.fail_join_call(done, GroupError::kUnknownMemberId, "");
  if (!within_id_length(params.client_id) || !within_id_length(params.protocol_type) ||
      (params.group_instance_id && !within_id_length(*params.group_instance_id))) {
    return context_.fail_join_call(done, GroupError::kInvalidRequest, params.member_id);
  }
  if (params.session_timeout_ms < context_.config.min_session_timeout_ms ||
      params.session_timeout_ms > context_.config.max_session_timeout_ms) {
    return context_.fail_join_call(done, GroupError::kInvalidSessionTimeout, params.member_id);
  }
  if (params.rebalance_timeout_ms < 0) params.rebalance_timeout_ms = params.session_timeout_ms;
  ClassicGroup* group = groups_.find_to_change(params.group_id);
  if (group == nullptr) {
    if (!params.member_id.empty()) {
      return context_.fail_join_call(done, GroupError::kUnknownMemberId, params.member_id);
    }
    if (params.protocol_type.empty() || params.protocols.empty()) {
      return context_.fail_join_call(done, GroupError::kInconsistentGroupProtocol,
                                     params.member_id);
    }
    if (GroupError error = admit_new_group(); error != GroupError::kNone) {
      return context_.fail_join_call(done, error, params.member_id);
    }
  }
  if (params.member_id.empty() && params.group_instance_id) {
    join_new_static_member(group, params, done);
  } else if (params.member_id.empty()) {
    join_new_member(group, params, done);
  } else {
    join_known_member(*group, params, done);
  }
}

void GroupCoordinator::join_new_member(ClassicGroup* group, JoinGroupParams& params,
                                       JoinGroupCallback& done) {
  if (group != nullptr &&
      !group->supports_protocols(params.protocol_type, params.protocols, params.member_id)) {
    return context_.fail_join_call(done, GroupError::kInconsistentGroupProtocol, params.member_id);
  }
  const std::string_view group_id = params.group_id;  // member_from() leaves it in place
  // Kafka skips the MEMBER_ID_REQUIRED round trip for static members.
  const bool pending = params.require_known_member_id && !params.group_instance_id;
  GroupMember member = member_from(
      params, context_.new_member_id(params.group_instance_id ? *params.group_instance_id
                                                              : params.client_id));
  if (GroupError error = admit_new_member(group, group_id, member, pending);
      error != GroupError::kNone) {
    return context_.fail_join_call(done, error, "");
  }
  if (group == nullptr) group = &groups_.create(group_id);
  if (pending) {
    group->add_pending_member(
        member.member_id, context_.now() + std::chrono::milliseconds(member.session_timeout_ms));
    return context_.fail_join_call(done, GroupError::kMemberIdRequired,
                                   std::move(member.member_id));
  }
  add_member_and_rebalance(*group, std::move(member), done);
}

void GroupCoordinator::join_known_member(ClassicGroup& group, JoinGroupParams& params,
                                         JoinGroupCallback& done) {
  if (!group.supports_protocols(params.protocol_type, params.protocols, params.member_id)) {
    return context_.fail_join_call(done, GroupError::kInconsistentGroupProtocol, params.member_id);
  }
  if (params.group_instance_id) {
    // Checked before pending ids: a static member never gets one.
    if (GroupError error = group.check_member(params.member_id, params.group_instance_id);
        error != GroupError::kNone) {
      return context_.fail_join_call(done, error, params.member_id);
    }
  }
  if (group.pending_members().contains(params.member_id)) {
    GroupMember member = member_from(params, params.member_id);
    if (GroupError error = admit_pending_member(group, member); error != GroupError::kNone) {
      return context_.fail_join_call(done, error, std::move(member.member_id));
    }
    group.remove_pending_member(member.member_id);
    return add_member_and_rebalance(group, std::move(member), done);
  }
  GroupMember* member = group.find_member(params.member_id);
  if (member == nullptr) {
    return context_.fail_join_call(done, GroupError::kUnknownMemberId, params.member_id);
  }
  bool same_protocols = member->protocols == params.protocols;
  bool rebalance = false;
  switch (group.state()) {
    case ClassicGroupState::kPreparingRebalance:
      rebalance = true;
      break;
    case ClassicGroupState::kCompletingRebalance:
      // Same protocols: the member lost our JoinGroup response; send it again.
      rebalance = !same_protocols;
      break;
    case ClassicGroupState::kStable:
      // A follower without changes just wants the current generation; the leader
      // rejoining means it wants a new assignment (e.g. the topic changed).
      rebalance = !same_protocols || group.is_leader(member->member_id);
      break;
    case ClassicGroupState::kEmpty:
    case ClassicGroupState::kDead:
      return context_.fail_join_call(done, GroupError::kUnknownMemberId, params.member_id);
  }
  if (rebalance) {
    if (GroupError error = admit_protocols(group, *member, params.protocols);
        error != GroupError::kNone) {
      return context_.fail_join_call(done, error, params.member_id);
    }
    return update_member_and_rebalance(group, *member, params, done);
  }
  context_.refresh_session(*member);
  context_.completions.enqueue(
      [callback = std::move(done), result = current_generation_result(group, *member)] {
        callback(result);
      });
}

GroupMember GroupCoordinator::member_from(JoinGroupParams& params, std::string member_id) const {
  GroupMember member;
  member.member_id = std::move(member_id);
  member.group_instance_id = std::move(params.group_instance_id);
  member.client_id = std::move(params.client_id);
  member.client_host = std::move(params.client_host);
  member.protocol_type = std::move(params.protocol_type);
  member.protocols = std::move(params.protocols);
  member.session_timeout_ms = params.session_timeout_ms;
  member.rebalance_timeout_ms = params.rebalance_timeout_ms;
  member.session_deadline =
      context_.now() + std::chrono::milliseconds(context_.config.new_member_join_timeout_ms);
  return member;
}

void GroupCoordinator::add_member_and_rebalance(ClassicGroup& group, GroupMember member,
                                                JoinGroupCallback& done) {
  member.join_callback = std::move(done);
  if (group.deadlines().initial_delay_end) group.deadlines().new_member_added = true;
  const GroupMember& added = group.add_member(std::move(member));
  context_.observe_member_joined(group, added);
  if (group.state() == ClassicGroupState::kPreparingRebalance)
    return rebalance_.maybe_complete_join(group);
  rebalance_.prepare(group, "member " + added.member_id + " joined");
}

void GroupCoordinator::update_member_and_rebalance(ClassicGroup& group, GroupMember& member,
                                                   JoinGroupParams& params,
                                                   JoinGroupCallback& done) {
  // A JoinGroup that is parked already is superseded by this one; answer it so the
  // client's requests complete in order.
  context_.complete_join_call(member,
                              join_error(GroupError::kRebalanceInProgress, member.member_id));
  group.update_protocols(member, std::move(params.protocols));
  member.session_timeout_ms = params.session_timeout_ms;
  member.rebalance_timeout_ms = params.rebalance_timeout_ms;
  member.join_callback = std::move(done);
  if (group.state() == ClassicGroupState::kPreparingRebalance)
    return rebalance_.maybe_complete_join(group);
  rebalance_.prepare(group, "member " + member.member_id + " rejoined");
}

// A static member's JoinGroup with an empty member id (Kafka's doStaticNewMemberJoinGroup): a
// new instance id joins like a new dynamic member, without MEMBER_ID_REQUIRED; a known one
// is replaced in place once the call is admitted (StaticMembership).
void GroupCoordinator::join_new_static_member(ClassicGroup* group, JoinGroupParams& params,
                                              JoinGroupCallback& done) {
  const std::string* bound =
      group == nullptr ? nullptr : group->static_member_id(*params.group_instance_id);
  if (bound == nullptr) return join_new_member(group, params, done);
  const std::string old_member_id = *bound;
  if (!group->supports_protocols(params.protocol_type, params.protocols, old_member_id)) {
    return context_.fail_join_call(done, GroupError::kInconsistentGroupProtocol, "");
  }
  std::string member_id = context_.new_member_id(*params.group_instance_id);
  if (GroupError error = admit_static_replacement(*group, *group->find_member(old_member_id),
                                                  member_id, params.protocols);
      error != GroupError::kNone) {
    return context_.fail_join_call(done, error, "");
  }
  static_membership_.replace(*group, old_member_id, std::move(member_id), params, done);
}

}  // namespace kgroups::broker
