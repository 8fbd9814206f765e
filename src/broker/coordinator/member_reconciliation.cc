// SPDX-License-Identifier: Apache-2.0
#include "broker/coordinator/member_reconciliation.h"

#include <set>

namespace kgroups::broker {
namespace {

// Returns whether the member may still own any of `revoking`: it did not say, or it
// reported one of them.
bool still_owns(const std::optional<std::vector<TopicPartitions>>& owned,
                const ConsumerAssignment& revoking) {
  return !owned || intersects(*owned, revoking);
}

ConsumerGroupMember next_assignment(const ConsumerGroupMember& member, std::int32_t member_epoch,
                                    std::int32_t target_epoch, const ConsumerAssignment& target,
                                    const PartitionEpochLookup& partition_epoch,
                                    const std::optional<std::vector<TopicPartitions>>& owned) {
  ConsumerAssignment keep;
  ConsumerAssignment revoke;
  ConsumerAssignment gain;
  bool unreleased = false;
  std::set<TopicId> topics;
  for (const auto& [topic, partitions] : target) topics.insert(topic);
  for (const auto& [topic, partitions] : member.assigned_partitions) topics.insert(topic);
  static const std::set<std::int32_t> kNone;
  for (const TopicId& topic : topics) {
    auto target_topic = target.find(topic);
    const std::set<std::int32_t>& wanted =
        target_topic == target.end() ? kNone : target_topic->second;
    auto assigned_topic = member.assigned_partitions.find(topic);
    const std::set<std::int32_t>& assigned =
        assigned_topic == member.assigned_partitions.end() ? kNone : assigned_topic->second;
    for (std::int32_t partition : assigned) {
      if (wanted.contains(partition)) {
        add_partition(keep, topic, partition);
      } else {
        add_partition(revoke, topic, partition);
      }
    }
    for (std::int32_t partition : wanted) {
      if (assigned.contains(partition)) continue;
      if (partition_epoch(topic, partition) != -1) {
        unreleased = true;  // another member still owns it
      } else {
        add_partition(gain, topic, partition);
      }
    }
  }
  // Both sets of partitions are replaced: they are not copied.
  ConsumerGroupMember next = member.without_partitions();
  if (!revoke.empty() && still_owns(owned, revoke)) {
    next.state = MemberState::kUnrevokedPartitions;
    next.update_member_epoch(member_epoch);
    next.assigned_partitions = std::move(keep);
    next.partitions_pending_revocation = std::move(revoke);
    return next;
  }
  for (const auto& [topic, partitions] : gain) {
    for (std::int32_t partition : partitions) add_partition(keep, topic, partition);
  }
  next.state = unreleased ? MemberState::kUnreleasedPartitions : MemberState::kStable;
  next.update_member_epoch(target_epoch);
  next.assigned_partitions = std::move(keep);
  return next;
}

}  // namespace

std::string_view member_state_name(MemberState state) {
  switch (state) {
    case MemberState::kStable:
      return "STABLE";
    case MemberState::kUnrevokedPartitions:
      return "UNREVOKED_PARTITIONS";
    case MemberState::kUnreleasedPartitions:
      return "UNRELEASED_PARTITIONS";
  }
  return "UNKNOWN";
}

ConsumerGroupMember reconcile_member(const ConsumerGroupMember& member,
                                     std::int32_t target_assignment_epoch,
                                     const ConsumerAssignment& target,
                                     const PartitionEpochLookup& partition_epoch,
                                     const std::optional<std::vector<TopicPartitions>>& owned) {
  switch (member.state) {
    case MemberState::kStable:
      if (member.member_epoch == target_assignment_epoch) return member;
      return next_assignment(member, member.member_epoch, target_assignment_epoch, target,
                             partition_epoch, owned);
    case MemberState::kUnrevokedPartitions:
      if (still_owns(owned, member.partitions_pending_revocation)) return member;
      // Revoked: the pending partitions are released by the caller's update, so the
      // member moves on from the epoch after its own.
      return next_assignment(member, member.member_epoch + 1, target_assignment_epoch, target,
                             partition_epoch, owned);
    case MemberState::kUnreleasedPartitions:
      return next_assignment(member, member.member_epoch, target_assignment_epoch, target,
                             partition_epoch, owned);
  }
  return member;
}

}  // namespace kgroups::broker
