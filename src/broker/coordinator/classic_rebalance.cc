// SPDX-License-Identifier: Apache-2.0
//
#include "broker/coordinator/classic_rebalance.h"

#include <algorithm>
#include <utility>

namespace kgroups::broker {
namespace {

std::string join_ids(const std::vector<std::string>& ids) {
  std::string joined;
  for (const std::string& id : ids) joined += (joined.empty() ? "" : ", ") + id;
  return joined;
}

}  // namespace

void ClassicRebalance::prepare(ClassicGroup& group, const std::string& reason) {
  // Followers parked in SyncGroup will not get this generation's assignment.
  group.clear_assignments();
  for (auto& [id, member] : group.members()) {
    context_.complete_sync_call(member, sync_error(GroupError::kRebalanceInProgress));
  }
  RebalanceDeadlines& deadlines = group.deadlines();
  deadlines.pending_sync_members.clear();
  deadlines.sync_deadline.reset();
  std::int32_t timeout_ms = group.rebalance_timeout_ms();
  std::int32_t delay_ms = context_.config.initial_rebalance_delay_ms;
  if (group.state() == ClassicGroupState::kEmpty && delay_ms > 0) {
    deadlines.initial_delay_end = context_.now() + std::chrono::milliseconds(delay_ms);
    deadlines.initial_delay_remaining_ms = std::max(timeout_ms - delay_ms, 0);
    deadlines.new_member_added = false;
  } else {
    deadlines.join_deadline = context_.now() + std::chrono::milliseconds(timeout_ms);
  }
  group.transition_to(ClassicGroupState::kPreparingRebalance);
  context_.log(ClassicGroupContext::label(group) + "preparing a rebalance after generation " +
               std::to_string(group.generation_id()) + ": " + reason);
  if (context_.observer != nullptr) {
    context_.observer->on_rebalance_started(GroupType::kClassic, group.group_id(),
                                            group.generation_id(), reason);
  }
  maybe_complete_join(group);
}

void ClassicRebalance::maybe_complete_join(ClassicGroup& group) {
  if (group.state() == ClassicGroupState::kPreparingRebalance &&
      !group.deadlines().initial_delay_end && group.all_members_joined()) {
    complete_join(group);
  }
}

void ClassicRebalance::complete_join(ClassicGroup& group) {
  RebalanceDeadlines& deadlines = group.deadlines();
  deadlines.join_deadline.reset();
  deadlines.initial_delay_end.reset();
  // Static members that did not rejoin stay (their sessions decide); dynamic ones go.
  std::vector<std::string> not_rejoined;
  for (auto& [id, member] : group.members()) {
    if (!member.awaiting_join() && !member.group_instance_id) not_rejoined.push_back(id);
  }
  if (!not_rejoined.empty()) {
    context_.log(ClassicGroupContext::label(group) + "removing " + join_ids(not_rejoined) +
                 ": did not rejoin within the rebalance timeout of " +
                 std::to_string(group.rebalance_timeout_ms()) + " ms");
  }
  for (const std::string& id : not_rejoined) {
    GroupMember* member = group.find_member(id);
    context_.observe_member_expired(group, *member,
                                    "member " + id +
                                        " did not rejoin within the rebalance timeout of " +
                                        std::to_string(group.rebalance_timeout_ms()) + " ms");
    context_.complete_sync_call(*member, sync_error(GroupError::kUnknownMemberId));
    group.remove_member(id);
  }
  if (!group.elect_joined_leader()) {
    // Only static members are left and none rejoined: wait another rebalance timeout
    // (or until their sessions run out).
    context_.log(ClassicGroupContext::label(group) + "no member rejoined; waiting another " +
                 std::to_string(group.rebalance_timeout_ms()) + " ms");
    deadlines.join_deadline =
        context_.now() + std::chrono::milliseconds(group.rebalance_timeout_ms());
    return;
  }
  group.init_next_generation();
  if (group.state() == ClassicGroupState::kEmpty) {
    context_.log(ClassicGroupContext::label(group) + "generation " +
                 std::to_string(group.generation_id()) + " has no members; the group is Empty");
    context_.observe_rebalance_completed(group);
    return;
  }
  context_.log(ClassicGroupContext::label(group) + "generation " +
               std::to_string(group.generation_id()) + " with " +
               std::to_string(group.members().size()) + " member(s), protocol " +
               group.protocol_name() + ", leader " + group.leader_id());
  std::vector<JoinedMember> joined = group.joined_members();
  for (auto& [id, member] : group.members()) {
    JoinGroupResult result;
    result.generation_id = group.generation_id();
    result.protocol_type = group.protocol_type();
    result.protocol_name = group.protocol_name();
    result.leader_id = group.leader_id();
    result.member_id = id;
    if (group.is_leader(id)) result.members = joined;
    member.is_new = false;
    context_.complete_join_call(member, std::move(result));
    context_.refresh_session(member);
    deadlines.pending_sync_members.insert(id);
  }
  deadlines.sync_deadline =
      context_.now() + std::chrono::milliseconds(group.rebalance_timeout_ms());
}

void ClassicRebalance::remove_member(ClassicGroup& group, GroupMember& member,
                                     const std::string& reason) {
  context_.complete_join_call(member, join_error(GroupError::kUnknownMemberId, member.member_id));
  context_.complete_sync_call(member, sync_error(GroupError::kUnknownMemberId));
  group.remove_member(member.member_id);
  switch (group.state()) {
    case ClassicGroupState::kStable:
    case ClassicGroupState::kCompletingRebalance:
      return prepare(group, reason);
    case ClassicGroupState::kPreparingRebalance:
      return maybe_complete_join(group);
    case ClassicGroupState::kEmpty:
    case ClassicGroupState::kDead:
      return;
  }
}

void ClassicRebalance::expire_pending_syncs(ClassicGroup& group) {
  std::vector<std::string> late(group.deadlines().pending_sync_members.begin(),
                                group.deadlines().pending_sync_members.end());
  std::string reason = "removed " + join_ids(late) +
                       ": no SyncGroup within the rebalance timeout of " +
                       std::to_string(group.rebalance_timeout_ms()) + " ms";
  context_.log(ClassicGroupContext::label(group) + reason);
  for (const std::string& id : late) {
    if (GroupMember* member = group.find_member(id); member != nullptr) {
      context_.observe_member_expired(group, *member,
                                      "member " + id +
                                          " sent no SyncGroup within the rebalance timeout of " +
                                          std::to_string(group.rebalance_timeout_ms()) + " ms");
      context_.complete_join_call(*member, join_error(GroupError::kUnknownMemberId, id));
      context_.complete_sync_call(*member, sync_error(GroupError::kUnknownMemberId));
      group.remove_member(id);
    }
  }
  prepare(group, reason);
}

void ClassicRebalance::end_initial_delay(ClassicGroup& group) {
  RebalanceDeadlines& deadlines = group.deadlines();
  std::int32_t delay_ms = context_.config.initial_rebalance_delay_ms;
  if (deadlines.new_member_added && deadlines.initial_delay_remaining_ms > 0) {
    // Members keep arriving: wait once more, within the rebalance timeout.
    std::int32_t next_delay_ms = std::min(delay_ms, deadlines.initial_delay_remaining_ms);
    deadlines.initial_delay_remaining_ms =
        std::max(deadlines.initial_delay_remaining_ms - delay_ms, 0);
    deadlines.new_member_added = false;
    deadlines.initial_delay_end = context_.now() + std::chrono::milliseconds(next_delay_ms);
    return;
  }
  deadlines.initial_delay_end.reset();
  complete_join(group);
}

void ClassicRebalance::fire_due_timers(ClassicGroup& group, Clock::TimePoint at) {
  // Each step removes a member or a pending id, or clears or moves a deadline past
  // `at`, so this bound is never reached unless timeouts are zero; then the rest
  // waits for the next call.
  std::size_t steps_left = 8 + 2 * (group.members().size() + group.pending_members().size());
  for (; steps_left > 0; --steps_left) {
    std::optional<Clock::TimePoint> due = group.next_deadline();
    if (!due || *due > at) return;
    RebalanceDeadlines& deadlines = group.deadlines();
    if (deadlines.initial_delay_end == due) {
      end_initial_delay(group);
    } else if (deadlines.join_deadline == due) {
      complete_join(group);
    } else if (deadlines.sync_deadline == due) {
      expire_pending_syncs(group);
    } else if (auto pending =
                   std::find_if(group.pending_members().begin(), group.pending_members().end(),
                                [&](const auto& entry) { return entry.second == *due; });
               pending != group.pending_members().end()) {
      std::string pending_id = pending->first;
      context_.log(ClassicGroupContext::label(group) + "pending member " + pending_id +
                   " did not join again within its session timeout");
      group.remove_pending_member(pending_id);
      maybe_complete_join(group);
    } else {
      auto expired = std::find_if(group.members().begin(), group.members().end(),
                                  [&](const auto& entry) { return entry.second.expiry() == due; });
      if (expired == group.members().end()) return;  // unreachable: `due` came from somewhere
      GroupMember& member = expired->second;
      std::string reason = member.is_new
                               ? "new member " + member.member_id + " waited " +
                                     std::to_string(context_.config.new_member_join_timeout_ms) +
                                     " ms for its first join"
                               : "member " + member.member_id +
                                     " sent no heartbeat within its session "
                                     "timeout of " +
                                     std::to_string(member.session_timeout_ms) + " ms";
      context_.log(ClassicGroupContext::label(group) + reason + "; removing it");
      context_.observe_member_expired(group, member, reason);
      remove_member(group, member, reason);
    }
  }
}

}  // namespace kgroups::broker
