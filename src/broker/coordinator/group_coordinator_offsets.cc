// SPDX-License-Identifier: Apache-2.0
//
// GroupCoordinator's OffsetCommit and OffsetFetch (Kafka's validateOffsetCommit,
// doCommitOffsets, storeOffsets and handleFetchOffsets). Fencing by member id and
// generation is what stops a member that lost a partition in a rebalance from
// committing over the new owner's progress.
#include "broker/coordinator/group_coordinator.h"
#include "broker/coordinator/stored_bytes.h"

namespace kgroups::broker {
namespace {

// Returns the fencing error of a commit to `group` (nullptr: the group does not exist).
GroupError fence(const ClassicGroup* group, const OffsetCommitParams& params) {
  // A group that does not exist never had this generation: the member is a zombie.
  if (group == nullptr && params.generation_id >= 0) return GroupError::kIllegalGeneration;
  // An instance id alone counts once the group has members (Kafka lets generation -1
  // commit to an Empty group whatever the ids).
  const bool static_member =
      params.group_instance_id && group != nullptr && group->state() != ClassicGroupState::kEmpty;
  if (params.generation_id >= 0 || !params.member_id.empty() || static_member) {
    if (group == nullptr) return GroupError::kUnknownMemberId;
    if (GroupError error = group->check_member(params.member_id, params.group_instance_id);
        error != GroupError::kNone) {
      return error;
    }
    if (params.generation_id != group->generation_id()) return GroupError::kIllegalGeneration;
  } else if (group != nullptr && group->state() != ClassicGroupState::kEmpty) {
    return GroupError::kUnknownMemberId;  // only members commit to a group with members
  }
  if (group != nullptr && group->state() == ClassicGroupState::kCompletingRebalance) {
    // The member knows the new generation but has no assignment yet.
    return GroupError::kRebalanceInProgress;
  }
  return GroupError::kNone;
}

}  // namespace

OffsetCommitResult GroupCoordinator::commit_offsets(const OffsetCommitParams& params) {
  CallScope scope(*this);
  auto fail = [&params](GroupError error) { return refused_offset_commit(params, error); };
  OffsetCommitResult result;
  if (!within_id_length(params.group_id)) return fail(GroupError::kInvalidGroupId);
  if (!within_id_length(params.member_id)) return fail(GroupError::kUnknownMemberId);
  ClassicGroup* group = groups_.find_to_change(params.group_id);
  if (GroupError error = params.unfenced ? GroupError::kNone : fence(group, params);
      error != GroupError::kNone) {
    return fail(error);
  }
  // Kafka's storeOffsets: partitions with too much metadata are left out, the others stored.
  OffsetCommitPlan plan =
      plan_offset_commit(group == nullptr ? nullptr : &group->offsets(), params.offsets,
                         context_.config.offset_metadata_max_bytes);
  result.partition_errors = std::move(plan.partition_errors);
  std::size_t growth = plan.growth_bytes;
  const std::size_t storing = plan.storing;
  if (params.validate_only) return result;
  if (storing > 0 && group == nullptr) {
    if (GroupError error = admit_new_group(); error != GroupError::kNone) return fail(error);
    growth += group_entry_bytes(params.group_id);
  }
  if (exceeds_stored_bytes(growth)) return fail(GroupError::kCoordinatorLoadInProgress);
  if (group != nullptr) {
    if (GroupMember* member = group->find_member(params.member_id); member != nullptr) {
      context_.refresh_session(*member);
    }
  }
  if (storing == 0) return result;
  if (group == nullptr) group = &groups_.create(params.group_id);  // from outside group management
  commit_planned_offsets(group->offsets(), params.offsets, result.partition_errors);
  if (context_.observer != nullptr) {
    context_.observer->on_offsets_committed(GroupType::kClassic, group->group_id(),
                                            params.member_id, stored_offsets(params, result));
  }
  return result;
}

std::vector<PartitionOffset> GroupCoordinator::fetch_offsets(
    std::string_view group_id, const std::optional<std::vector<TopicPartition>>& partitions) {
  CallScope scope(*this);
  const ClassicGroup* group = within_id_length(group_id) ? groups_.find(group_id) : nullptr;
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
