// SPDX-License-Identifier: Apache-2.0
//
// GroupCoordinator's JoinGroup paths (Kafka's doNewMemberJoinGroup and
// doCurrentMemberJoinGroup): validate, check the limits, add or update the member,
// start or advance the rebalance. The join itself completes in
// group_coordinator_rebalance.cc.
#include <utility>

#include "broker/coordinator/group_coordinator.h"

namespace kgroups::broker {
namespace {

void fail(JoinGroupCallback& done, GroupError error, std::string member_id,
          CompletionQueue& completions) {
  completions.enqueue([callback = std::move(done), error, member_id = std::move(member_id)] {
    callback(join_error(error, member_id));
  });
}

}  // namespace

void GroupCoordinator::join_group(JoinGroupParams params, JoinGroupCallback done) {
  CallScope scope(*this);
  // A member id too long to keep is not echoed back either.
  const bool member_id_fits = within_id_length(params.member_id);
  if (!valid_group_id(params.group_id)) {
    return fail(done, GroupError::kInvalidGroupId, member_id_fits ? params.member_id : "",
                completions_);
  }
  if (!member_id_fits) return fail(done, GroupError::kUnknownMemberId, "", completions_);
  if (!within_id_length(params.client_id) || !within_id_length(params.protocol_type) ||
      (params.group_instance_id && !within_id_length(*params.group_instance_id))) {
    return fail(done, GroupError::kInvalidRequest, params.member_id, completions_);
  }
  if (params.session_timeout_ms < config_.min_session_timeout_ms ||
      params.session_timeout_ms > config_.max_session_timeout_ms) {
    return fail(done, GroupError::kInvalidSessionTimeout, params.member_id, completions_);
  }
  if (params.rebalance_timeout_ms < 0) params.rebalance_timeout_ms = params.session_timeout_ms;
  ClassicGroup* group = groups_.find_to_change(params.group_id);
  if (group == nullptr) {
    if (!params.member_id.empty()) {
      return fail(done, GroupError::kUnknownMemberId, params.member_id, completions_);
    }
    if (params.protocol_type.empty() || params.protocols.empty()) {
      return fail(done, GroupError::kInconsistentGroupProtocol, params.member_id, completions_);
    }
    if (GroupError error = admit_new_group(); error != GroupError::kNone) {
      return fail(done, error, params.member_id, completions_);
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
    return fail(done, GroupError::kInconsistentGroupProtocol, params.member_id, completions_);
  }
  const std::string_view group_id = params.group_id;  // member_from() leaves it in place
  // Kafka skips the MEMBER_ID_REQUIRED round trip for static members.
  const bool pending = params.require_known_member_id && !params.group_instance_id;
  GroupMember member = member_from(
      params,
      new_member_id(params.group_instance_id ? *params.group_instance_id : params.client_id));
  if (GroupError error = admit_new_member(group, group_id, member, pending);
      error != GroupError::kNone) {
    return fail(done, error, "", completions_);
  }
  if (group == nullptr) group = &groups_.create(group_id);
  if (pending) {
    group->add_pending_member(member.member_id,
                              now() + std::chrono::milliseconds(member.session_timeout_ms));
    return fail(done, GroupError::kMemberIdRequired, std::move(member.member_id), completions_);
  }
  add_member_and_rebalance(*group, std::move(member), done);
}

void GroupCoordinator::join_known_member(ClassicGroup& group, JoinGroupParams& params,
                                         JoinGroupCallback& done) {
  if (!group.supports_protocols(params.protocol_type, params.protocols, params.member_id)) {
    return fail(done, GroupError::kInconsistentGroupProtocol, params.member_id, completions_);
  }
  if (params.group_instance_id) {
    // Checked before pending ids: a static member never gets one.
    if (GroupError error = group.check_member(params.member_id, params.group_instance_id);
        error != GroupError::kNone) {
      return fail(done, error, params.member_id, completions_);
    }
  }
  if (group.pending_members().contains(params.member_id)) {
    GroupMember member = member_from(params, params.member_id);
    if (GroupError error = admit_pending_member(group, member); error != GroupError::kNone) {
      return fail(done, error, std::move(member.member_id), completions_);
    }
    group.remove_pending_member(member.member_id);
    return add_member_and_rebalance(group, std::move(member), done);
  }
  GroupMember* member = group.find_member(params.member_id);
  if (member == nullptr) {
    return fail(done, GroupError::kUnknownMemberId, params.member_id, completions_);
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
      return fail(done, GroupError::kUnknownMemberId, params.member_id, completions_);
  }
  if (rebalance) {
    if (GroupError error = admit_protocols(group, *member, params.protocols);
        error != GroupError::kNone) {
      return fail(done, error, params.member_id, completions_);
    }
    return update_member_and_rebalance(group, *member, params, done);
  }
  refresh_session(*member);
  completions_.enqueue([callback = std::move(done),
                        result = current_generation_result(group, *member)] { callback(result); });
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
  member.session_deadline = now() + std::chrono::milliseconds(config_.new_member_join_timeout_ms);
  return member;
}

void GroupCoordinator::add_member_and_rebalance(ClassicGroup& group, GroupMember member,
                                                JoinGroupCallback& done) {
  member.join_callback = std::move(done);
  if (group.deadlines().initial_delay_end) group.deadlines().new_member_added = true;
  const GroupMember& added = group.add_member(std::move(member));
  observe_member_joined(group, added);
  if (group.state() == ClassicGroupState::kPreparingRebalance) return maybe_complete_join(group);
  prepare_rebalance(group, "member " + added.member_id + " joined");
}

void GroupCoordinator::update_member_and_rebalance(ClassicGroup& group, GroupMember& member,
                                                   JoinGroupParams& params,
                                                   JoinGroupCallback& done) {
  // A JoinGroup that is parked already is superseded by this one; answer it so the
  // client's requests complete in order.
  complete_join_call(member, join_error(GroupError::kRebalanceInProgress, member.member_id));
  group.update_protocols(member, std::move(params.protocols));
  member.session_timeout_ms = params.session_timeout_ms;
  member.rebalance_timeout_ms = params.rebalance_timeout_ms;
  member.join_callback = std::move(done);
  if (group.state() == ClassicGroupState::kPreparingRebalance) return maybe_complete_join(group);
  prepare_rebalance(group, "member " + member.member_id + " rejoined");
}

JoinGroupResult GroupCoordinator::current_generation_result(const ClassicGroup& group,
                                                            const GroupMember& member) const {
  JoinGroupResult result;
  result.generation_id = group.generation_id();
  result.protocol_type = group.protocol_type();
  result.protocol_name = group.protocol_name();
  result.leader_id = group.leader_id();
  result.member_id = member.member_id;
  if (group.is_leader(member.member_id)) result.members = group.joined_members();
  return result;
}

}  // namespace kgroups::broker
