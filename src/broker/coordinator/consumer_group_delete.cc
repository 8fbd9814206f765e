// SPDX-License-Identifier: Apache-2.0
//
// ConsumerGroupCoordinator's deletions: DeleteGroups, OffsetDelete, and the offsets of a
// deleted topic (Kafka's GroupMetadataManager for consumer groups: a group with members is
// not deleted; a subscribed topic's offsets are kept).
#include <string>

#include "broker/coordinator/consumer_group_coordinator.h"

namespace kgroups::broker {

GroupError ConsumerGroupCoordinator::delete_group(std::string_view group_id) {
  CallScope scope(*this);
  if (group_id.empty() || group_id.size() > config_.max_id_length) {
    return GroupError::kInvalidGroupId;
  }
  auto entry = groups_.find(group_id);
  if (entry == groups_.end()) return GroupError::kGroupIdNotFound;
  ConsumerGroup& group = *entry->second;
  if (group.size() != 0) return GroupError::kNonEmptyGroup;
  offset_bytes_ -= group.offsets().stored_bytes();
  deadlines_.remove(group.group_id());
  log("consumer group \"" + group.group_id() + "\" deleted");
  if (observer_ != nullptr) observer_->on_group_deleted(GroupType::kConsumer, group.group_id());
  groups_.erase(entry);  // settle_touched_groups() skips ids that are gone
  return GroupError::kNone;
}

OffsetDeleteResult ConsumerGroupCoordinator::delete_offsets(
    std::string_view group_id, const std::vector<TopicPartition>& partitions) {
  CallScope scope(*this);
  OffsetDeleteResult result;
  if (group_id.empty() || group_id.size() > config_.max_id_length) {
    result.error = GroupError::kInvalidGroupId;
    return result;
  }
  ConsumerGroup* group = find_group_to_change(group_id);  // forgotten on settle if emptied
  if (group == nullptr) {
    result.error = GroupError::kGroupIdNotFound;
    return result;
  }
  const std::size_t offsets_before = group->offsets().stored_bytes();
  result.partition_errors.reserve(partitions.size());
  for (const TopicPartition& partition : partitions) {
    if (group->subscribed_topic_counts().contains(partition.topic)) {
      result.partition_errors.push_back(GroupError::kGroupSubscribedToTopic);
      continue;
    }
    group->offsets().remove(partition);
    result.partition_errors.push_back(GroupError::kNone);
  }
  offset_bytes_ = offset_bytes_ - offsets_before + group->offsets().stored_bytes();
  return result;
}

void ConsumerGroupCoordinator::delete_topic_offsets(std::string_view topic) {
  CallScope scope(*this);
  for (auto& [group_id, group] : groups_) {
    if (!group->offsets().has_topic(topic)) continue;
    const std::size_t offsets_before = group->offsets().stored_bytes();
    group->offsets().remove_topic(topic);
    offset_bytes_ = offset_bytes_ - offsets_before + group->offsets().stored_bytes();
    touch(*group);  // forgotten on settle if it has neither members nor offsets left
  }
}

}  // namespace kgroups::broker
