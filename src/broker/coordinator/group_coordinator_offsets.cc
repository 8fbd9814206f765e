// SPDX-License-Identifier: Apache-2.0
//
// GroupCoordinator's OffsetCommit and OffsetFetch (Kafka's validateOffsetCommit,
// doCommitOffsets and handleFetchOffsets). Fencing by member id and generation is
// what stops a member that lost a partition in a rebalance from committing over the
// new owner's progress.
#include "broker/coordinator/group_coordinator.h"

namespace kgroups::broker {

GroupError GroupCoordinator::commit_offsets(const OffsetCommitParams& params) {
  CallScope scope(*this);
  Group* group = find_group(params.group_id);
  if (group == nullptr) {
    // A group that does not exist never had this generation: the member is a zombie.
    if (params.generation_id >= 0) return GroupError::kIllegalGeneration;
    group = &create_group(params.group_id);  // a commit from outside group management
  }
  GroupMember* member = nullptr;
  GroupError error = GroupError::kNone;
  if (params.generation_id >= 0 || !params.member_id.empty()) {
    member = group->find_member(params.member_id);
    if (member == nullptr) {
      error = GroupError::kUnknownMemberId;
    } else if (params.generation_id != group->generation_id()) {
      error = GroupError::kIllegalGeneration;
    }
  } else if (group->state() != GroupState::kEmpty) {
    error = GroupError::kUnknownMemberId;  // only members commit to a group with members
  }
  if (error == GroupError::kNone && group->state() == GroupState::kCompletingRebalance) {
    // The member knows the new generation but has no assignment yet.
    error = GroupError::kRebalanceInProgress;
  }
  if (error == GroupError::kNone) {
    if (member != nullptr) refresh_session(*member);
    for (const PartitionOffset& offset : params.offsets) {
      group->offsets().commit(offset.topic_partition, offset.committed);
    }
  }
  erase_group_if_unused(params.group_id);
  return error;
}

std::vector<PartitionOffset> GroupCoordinator::fetch_offsets(
    std::string_view group_id, const std::optional<std::vector<TopicPartition>>& partitions) {
  CallScope scope(*this);
  const Group* group = find_group(group_id);
  if (!partitions)
    return group == nullptr ? std::vector<PartitionOffset>{} : group->offsets().fetch_all();
  std::vector<PartitionOffset> offsets;
  offsets.reserve(partitions->size());
  for (const TopicPartition& topic_partition : *partitions) {
    offsets.push_back(PartitionOffset{
        topic_partition,
        group == nullptr ? CommittedOffset{} : group->offsets().fetch(topic_partition)});
  }
  return offsets;
}

}  // namespace kgroups::broker
