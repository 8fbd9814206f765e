// SPDX-License-Identifier: Apache-2.0
//
// GroupCoordinator: construction, the synchronous calls (Heartbeat, LeaveGroup,
// DescribeGroups, ListGroups), the call scope and timers. JoinGroup/SyncGroup live in
// group_coordinator_join.cc and _sync.cc, offsets in _offsets.cc, deletions in _delete.cc,
// limits in _limits.cc; the rebalance itself is ClassicRebalance (classic_rebalance.h) and
// static members' replacement StaticMembership (classic_static_membership.h).
#include "broker/coordinator/group_coordinator.h"

#include <algorithm>
#include <utility>

namespace kgroups::broker {

GroupCoordinator::GroupCoordinator(CoordinatorConfig config, const Clock& clock, Logger logger)
    : context_(config, clock, std::move(logger)) {}

GroupCoordinator::~GroupCoordinator() { shutdown(); }

GroupError GroupCoordinator::heartbeat(std::string_view group_id, std::int32_t generation_id,
                                       std::string_view member_id,
                                       std::optional<std::string_view> group_instance_id) {
  CallScope scope(*this);
  if (!valid_group_id(group_id)) return GroupError::kInvalidGroupId;
  if (!within_id_length(member_id)) return GroupError::kUnknownMemberId;
  ClassicGroup* group = groups_.find_to_change(group_id);
  if (group == nullptr) return GroupError::kUnknownMemberId;
  if (GroupError error = group->check_member(member_id, group_instance_id);
      error != GroupError::kNone) {
    return error;
  }
  GroupMember* member = group->find_member(member_id);
  if (generation_id != group->generation_id()) return GroupError::kIllegalGeneration;
  switch (group->state()) {
    case ClassicGroupState::kCompletingRebalance:
    case ClassicGroupState::kStable:
      context_.refresh_session(*member);
      return GroupError::kNone;
    case ClassicGroupState::kPreparingRebalance:
      context_.refresh_session(*member);
      return GroupError::kRebalanceInProgress;
    case ClassicGroupState::kEmpty:
    case ClassicGroupState::kDead:
      break;
  }
  return GroupError::kUnknownMemberId;
}

LeaveGroupResult GroupCoordinator::leave_group(std::string_view group_id,
                                               const std::vector<LeavingMember>& members) {
  CallScope scope(*this);
  LeaveGroupResult result;
  if (!valid_group_id(group_id)) {
    result.error = GroupError::kInvalidGroupId;
    return result;
  }
  ClassicGroup* group = groups_.find_to_change(group_id);
  // The first member that leaves a Stable or CompletingRebalance group starts the
  // rebalance; the others leave the PreparingRebalance group it started.
  for (const LeavingMember& leaving : members) {
    result.member_errors.push_back(GroupError::kUnknownMemberId);
    if (group == nullptr) continue;
    std::string member_id = leaving.member_id;
    if (member_id.empty() && leaving.group_instance_id) {
      // Removal by instance id alone (e.g. by an administrator).
      const std::string* bound = group->static_member_id(*leaving.group_instance_id);
      if (bound == nullptr) continue;
      member_id = *bound;
    } else if (group->remove_pending_member(member_id)) {
      context_.log("group \"" + group->group_id() + "\": pending member " + member_id + " left");
      rebalance_.maybe_complete_join(*group);
      result.member_errors.back() = GroupError::kNone;
      continue;
    } else if (GroupError error = group->check_member(member_id, leaving.group_instance_id);
               error != GroupError::kNone) {
      result.member_errors.back() = error;
      continue;
    }
    GroupMember* member = group->find_member(member_id);
    std::string reason =
        "member " + member_id +
        (member->group_instance_id ? " (static, instance " + *member->group_instance_id + ")"
                                   : std::string()) +
        " left the group";
    context_.log("group \"" + group->group_id() + "\": " + reason);
    context_.observe_member_left(*group, *member, reason);
    rebalance_.remove_member(*group, *member, reason);
    result.member_errors.back() = GroupError::kNone;
  }
  erase_group_if_unused(group_id);
  return result;
}

GroupSummary GroupCoordinator::describe_group(std::string_view group_id) {
  CallScope scope(*this);
  GroupSummary summary;
  summary.group_id = std::string(group_id);  // echoed: clients match the answers by id
  if (!within_id_length(group_id)) {
    summary.error = GroupError::kInvalidGroupId;  // with no state, as Kafka answers
    return summary;
  }
  const ClassicGroup* group = groups_.find(group_id);
  if (group == nullptr) {
    summary.state = std::string(group_state_name(ClassicGroupState::kDead));
    return summary;
  }
  bool stable = group->state() == ClassicGroupState::kStable;
  summary.state = std::string(group_state_name(group->state()));
  summary.protocol_type = group->protocol_type();
  if (stable) summary.protocol_name = group->protocol_name();
  std::vector<const GroupMember*> ordered;
  for (const auto& [id, member] : group->members()) ordered.push_back(&member);
  std::sort(ordered.begin(), ordered.end(), [](const GroupMember* left, const GroupMember* right) {
    return left->join_order < right->join_order;
  });
  for (const GroupMember* member : ordered) {
    MemberSummary member_summary;
    member_summary.member_id = member->member_id;
    member_summary.client_id = member->client_id;
    member_summary.client_host = member->client_host;
    member_summary.group_instance_id = member->group_instance_id;
    if (stable) {
      if (const auto* metadata = member->metadata_for(group->protocol_name())) {
        member_summary.metadata = *metadata;
      }
      member_summary.assignment = member->assignment;
    }
    summary.members.push_back(std::move(member_summary));
  }
  return summary;
}

std::vector<GroupListing> GroupCoordinator::list_groups() {
  CallScope scope(*this);
  std::vector<GroupListing> listings;
  listings.reserve(groups_.size());
  groups_.for_each([&listings](const ClassicGroup& group) {
    listings.push_back(GroupListing{group.group_id(), group.protocol_type(),
                                    std::string(group_state_name(group.state()))});
  });
  std::sort(listings.begin(), listings.end(),
            [](const GroupListing& left, const GroupListing& right) {
              return left.group_id < right.group_id;
            });
  return listings;
}

void GroupCoordinator::poll_timers() { CallScope scope(*this); }

std::optional<Clock::TimePoint> GroupCoordinator::next_deadline() const {
  return groups_.next_deadline();
}

std::size_t GroupCoordinator::recount_stored_bytes() const {
  std::size_t bytes = 0;
  groups_.for_each([&bytes](const ClassicGroup& group) { bytes += group.recount_stored_bytes(); });
  return bytes;
}

void GroupCoordinator::shutdown() {
  groups_.for_each_to_change([this](ClassicGroup& group) {
    for (auto& [member_id, member] : group.members()) {
      context_.complete_join_call(member,
                                  join_error(GroupError::kNotCoordinator, member.member_id));
      context_.complete_sync_call(member, sync_error(GroupError::kNotCoordinator));
    }
    group.transition_to(ClassicGroupState::kDead);
    return true;
  });
  groups_.clear();
  context_.completions.run();
}

void GroupCoordinator::begin_call() { fire_all_due_timers(); }

void GroupCoordinator::end_call() {
  groups_.settle();
  context_.completions.run();
}

bool GroupCoordinator::has_group(std::string_view group_id) const {
  return groups_.find(group_id) != nullptr;
}

std::optional<std::vector<PartitionOffset>> GroupCoordinator::release_empty_group(
    std::string_view group_id) {
  CallScope scope(*this);
  ClassicGroup* group = groups_.find_to_change(group_id);
  if (group == nullptr) return std::vector<PartitionOffset>{};
  if (group->state() != ClassicGroupState::kEmpty || !group->members().empty() ||
      !group->pending_members().empty()) {
    return std::nullopt;
  }
  std::vector<PartitionOffset> offsets = group->offsets().fetch_all();
  group->offsets() = OffsetStore{};
  erase_group_if_unused(std::string(group_id));
  return offsets;
}

void GroupCoordinator::erase_group_if_unused(std::string_view group_id) {
  ClassicGroup* group = groups_.find_to_change(group_id);
  if (group == nullptr) return;
  if (group->state() != ClassicGroupState::kEmpty || !group->members().empty() ||
      !group->pending_members().empty() || !group->offsets().empty()) {
    return;
  }
  group->transition_to(ClassicGroupState::kDead);
  if (context_.observer != nullptr)
    context_.observer->on_group_forgotten(GroupType::kClassic, group->group_id());
  groups_.erase(group_id);  // `group_id` may view the erased group's id: not used after
}

void GroupCoordinator::fire_all_due_timers() {
  Clock::TimePoint at = context_.now();
  // Each due group's expiries change that group only, so the others stay due and
  // their ids (views into the groups) stay valid.
  for (std::string_view id : groups_.due_at(at)) {
    ClassicGroup* group = groups_.find_to_change(id);
    rebalance_.fire_due_timers(*group, at);
    erase_group_if_unused(id);
  }
  groups_.settle();
}

}  // namespace kgroups::broker
