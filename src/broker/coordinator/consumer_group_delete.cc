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
  const ConsumerGroup* group = groups_.find(group_id);
  if (group == nullptr) return GroupError::kGroupIdNotFound;
  if (group->size() != 0) return GroupError::kNonEmptyGroup;
  log("consumer group \"" + group->group_id() + "\" deleted");
  if (observer_ != nullptr) observer_->on_group_deleted(GroupType::kConsumer, group->group_id());
  groups_.erase(group_id);
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
  ConsumerGroup* group = groups_.find_to_change(group_id);  // forgotten on settle if emptied
  if (group == nullptr) {
    result.error = GroupError::kGroupIdNotFound;
    return result;
  }
  result.partition_errors.reserve(partitions.size());
  for (const TopicPartition& partition : partitions) {
    if (group->subscribed_topic_counts().contains(partition.topic)) {
      result.partition_errors.push_back(GroupError::kGroupSubscribedToTopic);
      continue;
    }
    group->offsets().remove(partition);
    result.partition_errors.push_back(GroupError::kNone);
  }
  return result;
}

void ConsumerGroupCoordinator::delete_topic_offsets(std::string_view topic) {
  CallScope scope(*this);
  // A group left with neither members nor offsets is forgotten when the call settles.
  groups_.for_each_to_change([topic](ConsumerGroup& group) {
    if (!group.offsets().has_topic(topic)) return false;
    group.offsets().remove_topic(topic);
    return true;
  });
}

}  // namespace kgroups::broker
