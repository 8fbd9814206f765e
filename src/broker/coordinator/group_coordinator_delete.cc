// SPDX-License-Identifier: Apache-2.0
//
// GroupCoordinator's deletions: DeleteGroups, OffsetDelete, and the offsets of a deleted
// topic (Kafka's GroupCoordinator.handleDeleteGroups, handleDeleteOffsets and
// onPartitionsDeleted).
#include <set>
#include <string>

#include "broker/coordinator/consumer_protocol.h"
#include "broker/coordinator/group_coordinator.h"

namespace kgroups::broker {
namespace {

constexpr std::string_view kConsumerProtocolType = "consumer";

bool has_members(const ClassicGroup& group) {
  return group.state() != ClassicGroupState::kEmpty || !group.members().empty() ||
         !group.pending_members().empty();
}

// The topics the members' subscriptions name (for the selected protocol when there is one),
// or nullopt if one of them cannot be read.
std::optional<std::set<std::string, std::less<>>> subscribed_topics(const ClassicGroup& group) {
  std::set<std::string, std::less<>> topics;
  for (const auto& [member_id, member] : group.members()) {
    for (const GroupProtocol& protocol : member.protocols) {
      if (!group.protocol_name().empty() && protocol.name != group.protocol_name()) continue;
      const auto names = consumer_subscription_topics(protocol.metadata);
      if (!names) return std::nullopt;
      topics.insert(names->begin(), names->end());
    }
  }
  return topics;
}

}  // namespace

GroupError GroupCoordinator::delete_group(std::string_view group_id) {
  CallScope scope(*this);
  if (!valid_group_id(group_id)) return GroupError::kInvalidGroupId;
  ClassicGroup* group = groups_.find_to_change(group_id);
  if (group == nullptr) return GroupError::kGroupIdNotFound;
  if (has_members(*group)) return GroupError::kNonEmptyGroup;
  group->offsets() = OffsetStore{};
  context_.log("group \"" + group->group_id() + "\" deleted");
  if (context_.observer != nullptr)
    context_.observer->on_group_deleted(GroupType::kClassic, group->group_id());
  erase_group_if_unused(std::string(group_id));
  return GroupError::kNone;
}

OffsetDeleteResult GroupCoordinator::delete_offsets(std::string_view group_id,
                                                    const std::vector<TopicPartition>& partitions) {
  CallScope scope(*this);
  OffsetDeleteResult result;
  if (!valid_group_id(group_id)) {
    result.error = GroupError::kInvalidGroupId;
    return result;
  }
  ClassicGroup* group = groups_.find_to_change(group_id);
  if (group == nullptr) {
    result.error = GroupError::kGroupIdNotFound;
    return result;
  }
  std::optional<std::set<std::string, std::less<>>> subscribed;  // nullopt: every topic
  if (has_members(*group)) {
    if (group->protocol_type() != kConsumerProtocolType) {
      result.error = GroupError::kNonEmptyGroup;
      return result;
    }
    subscribed = subscribed_topics(*group);
  } else {
    subscribed.emplace();  // an empty group subscribes to nothing
  }
  result.partition_errors.reserve(partitions.size());
  for (const TopicPartition& partition : partitions) {
    if (!subscribed || subscribed->contains(partition.topic)) {
      result.partition_errors.push_back(GroupError::kGroupSubscribedToTopic);
      continue;
    }
    group->offsets().remove(partition);
    result.partition_errors.push_back(GroupError::kNone);
  }
  erase_group_if_unused(std::string(group_id));
  return result;
}

void GroupCoordinator::delete_topic_offsets(std::string_view topic) {
  CallScope scope(*this);
  std::vector<std::string> emptied;
  groups_.for_each_to_change([&](ClassicGroup& group) {
    if (!group.offsets().has_topic(topic)) return false;
    group.offsets().remove_topic(topic);
    if (group.offsets().empty()) emptied.push_back(group.group_id());
    return true;
  });
  for (const std::string& group_id : emptied) erase_group_if_unused(group_id);
}

}  // namespace kgroups::broker
