// SPDX-License-Identifier: Apache-2.0
//
// ConsumerGroupCoordinator: group epochs, target assignment and reconciliation
// (Kafka's consumerGroupFenceMember, the epoch and target steps of
// consumerGroupHeartbeat, TargetAssignmentBuilder and maybeReconcile).
#include <algorithm>
#include <utility>

#include "broker/coordinator/consumer_group_coordinator.h"
#include "broker/coordinator/member_reconciliation.h"
#include "broker/coordinator/server_assignor.h"

namespace kgroups::broker {

void ConsumerGroupCoordinator::fence_member(ConsumerGroup& group, const std::string& member_id,
                                            Removal removal, const std::string& reason) {
  const ConsumerGroupMember* member = group.find_member(member_id);
  if (member == nullptr) return;
  const std::string event_reason = removal == Removal::kLeft
                                       ? "member " + member_id + " left the group"
                                       : "member " + member_id + " removed because " + reason;
  if (observer_ != nullptr) {
    if (removal == Removal::kLeft) {
      observer_->on_member_left(GroupType::kConsumer, group.group_id(), observed(*member),
                                event_reason);
    } else {
      observer_->on_member_expired(GroupType::kConsumer, group.group_id(), observed(*member),
                                   event_reason);
    }
  }
  group.remove_member(member_id);
  group.refresh_subscription_metadata(catalog_);
  group.set_group_epoch(group.group_epoch() + 1);
  log("group \"" + group.group_id() + "\": member " + member_id + " removed because " + reason +
      "; group epoch " + std::to_string(group.group_epoch()));
  if (observer_ != nullptr) {
    observer_->on_rebalance_started(GroupType::kConsumer, group.group_id(), group.group_epoch() - 1,
                                    event_reason);
  }
}

void ConsumerGroupCoordinator::update_group_epoch_and_target(ConsumerGroup& group,
                                                             bool subscription_changed,
                                                             std::string_view member_id,
                                                             bool member_added) {
  bool bump = subscription_changed;
  if (subscription_changed || group.catalog_changed(catalog_)) {
    bump = group.refresh_subscription_metadata(catalog_) || bump;
  }
  if (bump) {
    group.set_group_epoch(group.group_epoch() + 1);
    log("group \"" + group.group_id() + "\": group epoch " + std::to_string(group.group_epoch()));
    if (observer_ != nullptr) {
      const std::string reason =
          member_added           ? "member " + std::string(member_id) + " joined"
          : subscription_changed ? "member " + std::string(member_id) + " changed its subscription"
                                 : std::string("the subscribed topics' metadata changed");
      observer_->on_rebalance_started(GroupType::kConsumer, group.group_id(),
                                      group.group_epoch() - 1, reason);
    }
  }
  if (group.group_epoch() > group.assignment_epoch()) compute_target_assignment(group);
}

void ConsumerGroupCoordinator::compute_target_assignment(ConsumerGroup& group) {
  const std::string assignor_name = group.preferred_assignor(kDefaultServerAssignor);
  const ServerAssignor* assignor = find_server_assignor(assignor_name);
  if (assignor == nullptr) assignor = find_server_assignor(kDefaultServerAssignor);
  AssignmentSpec spec;
  for (const auto& [name, topic] : group.subscription_metadata()) {
    spec.partition_counts[topic.id] = topic.partition_count;
  }
  spec.members.reserve(group.size());
  for (const auto& [member_id, member] : group.members()) {
    AssignmentMember& entry = spec.members.emplace_back();
    entry.member_id = member_id;
    for (const std::string& name : member.subscribed_topic_names) {
      auto topic = group.subscription_metadata().find(name);
      if (topic != group.subscription_metadata().end()) {
        entry.subscribed_topic_ids.push_back(topic->second.id);
      }
    }
    std::sort(entry.subscribed_topic_ids.begin(), entry.subscribed_topic_ids.end());
    entry.subscribed_topic_ids.erase(
        std::unique(entry.subscribed_topic_ids.begin(), entry.subscribed_topic_ids.end()),
        entry.subscribed_topic_ids.end());
    entry.current_target = &group.target_of(member_id);
  }
  std::vector<ConsumerAssignment> assignments = assignor->assign(spec);
  std::map<std::string, ConsumerAssignment, std::less<>> target;
  for (std::size_t i = 0; i < spec.members.size(); ++i) {
    if (!assignments[i].empty())
      target.emplace(spec.members[i].member_id, std::move(assignments[i]));
  }
  group.set_target_assignment(std::move(target), group.group_epoch());
  log("group \"" + group.group_id() + "\": target assignment computed for epoch " +
      std::to_string(group.group_epoch()) + " by " + std::string(assignor->name()));
  if (observer_ != nullptr) observe_target_assignment(group, assignor->name());
}

bool ConsumerGroupCoordinator::reconcile(ConsumerGroup& group, const std::string& member_id,
                                         const std::optional<std::vector<TopicPartitions>>& owned) {
  const ConsumerGroupMember& member = *group.find_member(member_id);
  if (member.reconciled_to(group.assignment_epoch())) return false;
  ConsumerGroupMember next = reconcile_member(
      member, group.assignment_epoch(), group.target_of(member_id),
      [&group](const TopicId& topic, std::int32_t partition) {
        return group.partition_epoch(topic, partition);
      },
      owned);
  const bool changed = next.member_epoch != member.member_epoch ||
                       next.previous_member_epoch != member.previous_member_epoch ||
                       next.state != member.state ||
                       next.assigned_partitions != member.assigned_partitions ||
                       next.partitions_pending_revocation != member.partitions_pending_revocation;
  if (!changed) return false;
  const bool assignment_changed = next.assigned_partitions != member.assigned_partitions;
  if (next.state == MemberState::kUnrevokedPartitions) {
    next.rebalance_deadline = now() + std::chrono::milliseconds(next.rebalance_timeout_ms);
  } else {
    next.rebalance_deadline.reset();
  }
  group.put_member(std::move(next));
  if (observer_ != nullptr) {
    observer_->on_member_updated(GroupType::kConsumer, group.group_id(), member_id,
                                 MemberUpdate::kAssignment);
  }
  return assignment_changed;
}

}  // namespace kgroups::broker
