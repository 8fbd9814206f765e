// SPDX-License-Identifier: Apache-2.0
#include "broker/coordinator/consumer_group.h"

#include <utility>

namespace kgroups::broker {

std::string_view consumer_group_state_name(ConsumerGroupState state) {
  switch (state) {
    case ConsumerGroupState::kEmpty:
      return "Empty";
    case ConsumerGroupState::kAssigning:
      return "Assigning";
    case ConsumerGroupState::kReconciling:
      return "Reconciling";
    case ConsumerGroupState::kStable:
      return "Stable";
    case ConsumerGroupState::kDead:
      return "Dead";
  }
  return "Dead";
}

ConsumerGroupState ConsumerGroup::state() const {
  if (members_.empty()) return ConsumerGroupState::kEmpty;
  if (group_epoch_ > assignment_epoch_) return ConsumerGroupState::kAssigning;
  for (const auto& [member_id, member] : members_) {
    if (!member.reconciled_to(assignment_epoch_)) return ConsumerGroupState::kReconciling;
  }
  return ConsumerGroupState::kStable;
}

const ConsumerGroupMember* ConsumerGroup::find_member(std::string_view member_id) const {
  auto member = members_.find(member_id);
  return member == members_.end() ? nullptr : &member->second;
}

const ConsumerGroupMember* ConsumerGroup::static_member(std::string_view instance_id) const {
  auto entry = static_members_.find(instance_id);
  return entry == static_members_.end() ? nullptr : find_member(entry->second);
}

namespace {

// The member's partitions of one topic: assigned and pending revocation (each may be null).
struct OwnedOfTopic {
  const std::set<std::int32_t>* assigned = nullptr;
  const std::set<std::int32_t>* pending = nullptr;

  OwnedOfTopic(const ConsumerGroupMember& member, const TopicId& topic) {
    if (auto found = member.assigned_partitions.find(topic);
        found != member.assigned_partitions.end()) {
      assigned = &found->second;
    }
    if (auto found = member.partitions_pending_revocation.find(topic);
        found != member.partitions_pending_revocation.end()) {
      pending = &found->second;
    }
  }
  [[nodiscard]] bool contains(std::int32_t partition) const {
    return (assigned != nullptr && assigned->contains(partition)) ||
           (pending != nullptr && pending->contains(partition));
  }
};

}  // namespace

void ConsumerGroup::set_partition_epochs(const ConsumerAssignment& partitions, std::int32_t epoch,
                                         bool add) {
  for (const auto& [topic, numbers] : partitions) {
    std::map<std::int32_t, std::int32_t>& epochs = partition_epochs_[topic];
    for (std::int32_t partition : numbers) {
      if (add) {
        epochs[partition] = epoch;
      } else {
        epochs.erase(partition);
      }
    }
    if (epochs.empty()) partition_epochs_.erase(topic);
  }
}

// The partitions `before` owned and `after` does not leave the index; those `after` owns
// are set to its epoch where they are new or the epoch moved. The result equals removing
// every partition of `before`, then adding every partition of `after`, at the cost of a
// comparison per partition and an index update per partition that changed.
void ConsumerGroup::reindex_partition_epochs(const ConsumerGroupMember& before,
                                             const ConsumerGroupMember& after) {
  const bool same_epoch = before.member_epoch == after.member_epoch;
  if (same_epoch && before.assigned_partitions == after.assigned_partitions &&
      before.partitions_pending_revocation == after.partitions_pending_revocation) {
    return;
  }
  for (const ConsumerAssignment* partitions :
       {&before.assigned_partitions, &before.partitions_pending_revocation}) {
    for (const auto& [topic, numbers] : *partitions) {
      const OwnedOfTopic kept(after, topic);
      auto epochs = partition_epochs_.find(topic);
      if (epochs == partition_epochs_.end()) continue;
      for (std::int32_t partition : numbers) {
        if (!kept.contains(partition)) epochs->second.erase(partition);
      }
      if (epochs->second.empty()) partition_epochs_.erase(epochs);
    }
  }
  for (const ConsumerAssignment* partitions :
       {&after.assigned_partitions, &after.partitions_pending_revocation}) {
    for (const auto& [topic, numbers] : *partitions) {
      const OwnedOfTopic had(before, topic);
      std::map<std::int32_t, std::int32_t>* epochs = nullptr;
      for (std::int32_t partition : numbers) {
        if (same_epoch && had.contains(partition)) continue;
        if (epochs == nullptr) epochs = &partition_epochs_[topic];
        (*epochs)[partition] = after.member_epoch;
      }
    }
  }
}

std::size_t consumer_member_bytes(const ConsumerGroupMember& member) {
  // The member struct in its map node, and its id as the node's key.
  constexpr std::size_t kMemberOverheadBytes = sizeof(ConsumerGroupMember) + 48 + 16;
  // A subscribed name: its std::string in the member's vector, plus its node in the
  // group's subscription counts (shared by members, charged to each).
  constexpr std::size_t kNameOverheadBytes = sizeof(std::string) + 48 + 16;
  auto text = [](const std::optional<std::string>& value) {
    return value ? value->size() + 16 : 0;
  };
  std::size_t bytes = kMemberOverheadBytes + 2 * member.member_id.size() +
                      text(member.instance_id) + text(member.rack_id) +
                      text(member.server_assignor) + member.client_id.size() +
                      member.client_host.size();
  for (const std::string& name : member.subscribed_topic_names) {
    bytes += kNameOverheadBytes + 2 * name.size();
  }
  return bytes;
}

// Adds (sign 1) or removes (sign -1) what the member contributes to the indexes.
void ConsumerGroup::index_member(const ConsumerGroupMember& member, int sign) {
  index_member_details(member, sign);
  set_partition_epochs(member.assigned_partitions, member.member_epoch, sign > 0);
  set_partition_epochs(member.partitions_pending_revocation, member.member_epoch, sign > 0);
}

// Adds (sign 1) or removes (sign -1) what the member contributes to the indexes other
// than the partition epochs.
void ConsumerGroup::index_member_details(const ConsumerGroupMember& member, int sign) {
  const bool add = sign > 0;
  const std::size_t bytes = consumer_member_bytes(member);
  if (add) {
    member_bytes_ += bytes;
  } else {
    member_bytes_ -= bytes;
  }
  for (const std::string& topic : member.subscribed_topic_names) {
    if ((subscribed_topic_counts_[topic] += sign) == 0) subscribed_topic_counts_.erase(topic);
  }
  if (member.server_assignor) {
    if ((assignor_counts_[*member.server_assignor] += sign) == 0) {
      assignor_counts_.erase(*member.server_assignor);
    }
  }
  if (member.instance_id) {
    if (add) {
      static_members_[*member.instance_id] = member.member_id;
    } else if (auto entry = static_members_.find(*member.instance_id);
               entry != static_members_.end() && entry->second == member.member_id) {
      static_members_.erase(entry);
    }
  }
  if (member.session_deadline) {
    std::tuple timer{*member.session_deadline, member.member_id, MemberTimer::kSession};
    add ? (void)timers_.insert(std::move(timer)) : (void)timers_.erase(timer);
  }
  if (member.rebalance_deadline) {
    std::tuple timer{*member.rebalance_deadline, member.member_id, MemberTimer::kRebalance};
    add ? (void)timers_.insert(std::move(timer)) : (void)timers_.erase(timer);
  }
}

// Moves the member's timer from the `before` deadline to the `after` one, reusing its
// node (the member id is the same).
void ConsumerGroup::move_timer(const std::string& member_id, MemberTimer kind,
                               const std::optional<Clock::TimePoint>& before,
                               const std::optional<Clock::TimePoint>& after) {
  if (before == after) return;
  if (before && after) {
    auto node = timers_.extract(std::tuple{*before, member_id, kind});
    if (!node.empty()) {
      std::get<0>(node.value()) = *after;
      timers_.insert(std::move(node));
      return;
    }
  }
  if (before) timers_.erase(std::tuple{*before, member_id, kind});
  if (after) timers_.insert(std::tuple{*after, member_id, kind});
}

// Replaces what `before` contributes to the indexes other than the partition epochs by
// what `after` (the same member id) does, touching only the indexes whose keys differ.
void ConsumerGroup::reindex_member_details(const ConsumerGroupMember& before,
                                           const ConsumerGroupMember& after) {
  member_bytes_ = member_bytes_ - consumer_member_bytes(before) + consumer_member_bytes(after);
  if (before.subscribed_topic_names != after.subscribed_topic_names) {
    for (const std::string& topic : before.subscribed_topic_names) {
      if (--subscribed_topic_counts_[topic] == 0) subscribed_topic_counts_.erase(topic);
    }
    for (const std::string& topic : after.subscribed_topic_names) ++subscribed_topic_counts_[topic];
  }
  if (before.server_assignor != after.server_assignor) {
    if (before.server_assignor && --assignor_counts_[*before.server_assignor] == 0) {
      assignor_counts_.erase(*before.server_assignor);
    }
    if (after.server_assignor) ++assignor_counts_[*after.server_assignor];
  }
  if (before.instance_id != after.instance_id) {
    if (before.instance_id) {
      if (auto entry = static_members_.find(*before.instance_id);
          entry != static_members_.end() && entry->second == before.member_id) {
        static_members_.erase(entry);
      }
    }
    if (after.instance_id) static_members_[*after.instance_id] = after.member_id;
  } else if (after.instance_id) {
    static_members_[*after.instance_id] = after.member_id;
  }
  move_timer(after.member_id, MemberTimer::kSession, before.session_deadline,
             after.session_deadline);
  move_timer(after.member_id, MemberTimer::kRebalance, before.rebalance_deadline,
             after.rebalance_deadline);
}

void ConsumerGroup::put_member(ConsumerGroupMember member) {
  auto existing = members_.find(member.member_id);
  if (existing != members_.end()) {
    reindex_member_details(existing->second, member);
    reindex_partition_epochs(existing->second, member);
    existing->second = std::move(member);
    return;
  }
  auto [inserted, added] = members_.emplace(member.member_id, std::move(member));
  index_member(inserted->second, 1);
}

void ConsumerGroup::update_member_details(ConsumerGroupMember details) {
  auto existing = members_.find(details.member_id);
  if (existing == members_.end()) {
    put_member(std::move(details));
    return;
  }
  ConsumerGroupMember& member = existing->second;
  details.member_epoch = member.member_epoch;
  details.previous_member_epoch = member.previous_member_epoch;
  details.state = member.state;
  details.rebalance_deadline = member.rebalance_deadline;
  reindex_member_details(member, details);
  details.assigned_partitions = std::move(member.assigned_partitions);
  details.partitions_pending_revocation = std::move(member.partitions_pending_revocation);
  member = std::move(details);
}

bool ConsumerGroup::remove_member(std::string_view member_id) {
  auto member = members_.find(member_id);
  if (member == members_.end()) return false;
  index_member(member->second, -1);
  if (auto target = target_.find(member_id); target != target_.end()) target_.erase(target);
  members_.erase(member);
  return true;
}

void ConsumerGroup::replace_member(std::string_view old_member_id, ConsumerGroupMember member) {
  ConsumerAssignment target;
  if (auto entry = target_.find(old_member_id); entry != target_.end()) {
    target = std::move(entry->second);
  }
  remove_member(old_member_id);
  if (!target.empty()) target_[member.member_id] = std::move(target);
  put_member(std::move(member));
}

std::int32_t ConsumerGroup::partition_epoch(const TopicId& topic, std::int32_t partition) const {
  auto epochs = partition_epochs_.find(topic);
  if (epochs == partition_epochs_.end()) return -1;
  auto epoch = epochs->second.find(partition);
  return epoch == epochs->second.end() ? -1 : epoch->second;
}

const ConsumerAssignment& ConsumerGroup::target_of(std::string_view member_id) const {
  static const ConsumerAssignment kEmpty;
  auto target = target_.find(member_id);
  return target == target_.end() ? kEmpty : target->second;
}

void ConsumerGroup::set_target_assignment(
    std::map<std::string, ConsumerAssignment, std::less<>> target, std::int32_t epoch) {
  changed_targets_.clear();
  for (const auto& [member_id, assignment] : target) {
    const auto before = target_.find(member_id);
    if (before == target_.end() || before->second != assignment) {
      changed_targets_.push_back(member_id);
    }
  }
  target_ = std::move(target);
  assignment_epoch_ = epoch;
}

bool ConsumerGroup::refresh_subscription_metadata(const TopicCatalog& catalog) {
  catalog_version_ = catalog.version();
  std::map<std::string, TopicDescription, std::less<>> metadata;
  for (const auto& [name, count] : subscribed_topic_counts_) {
    if (std::optional<TopicDescription> topic = catalog.find_by_name(name); topic) {
      metadata.emplace(name, std::move(*topic));
    }
  }
  if (metadata == subscription_metadata_) return false;
  subscription_metadata_ = std::move(metadata);
  return true;
}

std::string ConsumerGroup::preferred_assignor(std::string_view fallback) const {
  const std::pair<const std::string, int>* best = nullptr;
  for (const auto& entry : assignor_counts_) {
    if (best == nullptr || entry.second > best->second) best = &entry;
  }
  return best == nullptr ? std::string(fallback) : best->first;
}

std::optional<Clock::TimePoint> ConsumerGroup::next_deadline() const {
  if (timers_.empty()) return std::nullopt;
  return std::get<0>(*timers_.begin());
}

std::vector<std::pair<std::string, MemberTimer>> ConsumerGroup::due_timers(
    Clock::TimePoint at) const {
  std::vector<std::pair<std::string, MemberTimer>> due;
  for (const auto& [deadline, member_id, timer] : timers_) {
    if (deadline > at) break;
    due.emplace_back(member_id, timer);
  }
  return due;
}

}  // namespace kgroups::broker
