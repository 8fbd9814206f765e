// SPDX-License-Identifier: Apache-2.0
//
// ConsumerGroupCoordinator's OffsetCommit and OffsetFetch (Kafka's
// ConsumerGroup.validateOffsetCommit and validateOffsetFetch): the member epoch plays
// the generation's part, so a member that moved on, or was removed, cannot commit
// over the new owner's progress.
#include "broker/coordinator/consumer_group_coordinator.h"
#include "broker/coordinator/stored_bytes.h"

namespace kgroups::broker {
namespace {

// Returns the fencing error of a commit or fetch at `epoch` by `member_id`.
GroupError fence(const ConsumerGroup& group, std::string_view member_id, std::int32_t epoch) {
  const ConsumerGroupMember* member = group.find_member(member_id);
  if (member == nullptr) return GroupError::kUnknownMemberId;
  if (epoch != member->member_epoch) return GroupError::kStaleMemberEpoch;
  return GroupError::kNone;
}

}  // namespace

OffsetCommitResult ConsumerGroupCoordinator::commit_offsets(const OffsetCommitParams& params) {
  CallScope scope(*this);
  auto fail = [&params](GroupError error) { return refused_offset_commit(params, error); };
  OffsetCommitResult result;
  if (params.group_id.empty() || params.group_id.size() > config_.max_id_length) {
    return fail(GroupError::kInvalidGroupId);
  }
  ConsumerGroup* group = groups_.find_to_change(params.group_id);
  const std::int32_t epoch = params.generation_id;
  // Epoch < 0: the admin client, or a consumer outside group management; allowed
  // while the group has no members.
  const bool from_outside = epoch < 0 && (group == nullptr || group->size() == 0);
  if (!from_outside && !params.unfenced) {
    if (group == nullptr) return fail(GroupError::kUnknownMemberId);
    if (GroupError error = fence(*group, params.member_id, epoch); error != GroupError::kNone) {
      return fail(error);
    }
  }
  OffsetCommitPlan plan = plan_offset_commit(group == nullptr ? nullptr : &group->offsets(),
                                             params.offsets, config_.offset_metadata_max_bytes);
  result.partition_errors = std::move(plan.partition_errors);
  if (plan.storing == 0 || params.validate_only) return result;
  const std::size_t growth = plan.growth_bytes;
  if (config_.max_stored_bytes > 0 && growth > 0 &&
      stored_bytes() + growth > config_.max_stored_bytes) {
    return fail(GroupError::kCoordinatorLoadInProgress);
  }
  if (group == nullptr) {
    if (groups_.size() >= config_.max_groups) return fail(GroupError::kPolicyViolation);
    group = &create_group(params.group_id);
  }
  commit_planned_offsets(group->offsets(), params.offsets, result.partition_errors);
  if (observer_ != nullptr) {
    observer_->on_offsets_committed(GroupType::kConsumer, group->group_id(), params.member_id,
                                    stored_offsets(params, result));
  }
  return result;
}

ConsumerOffsetFetchResult ConsumerGroupCoordinator::fetch_offsets(
    const ConsumerOffsetFetchParams& params) {
  CallScope scope(*this);
  ConsumerOffsetFetchResult result;
  if (params.group_id.size() > config_.max_id_length) {
    result.error = GroupError::kInvalidGroupId;
    return result;
  }
  const ConsumerGroup* group = groups_.find(params.group_id);
  if (params.member_id || params.member_epoch >= 0) {
    result.error = group == nullptr
                       ? GroupError::kUnknownMemberId
                       : fence(*group, params.member_id.value_or(""), params.member_epoch);
    if (result.error != GroupError::kNone) return result;
  }
  if (!params.partitions) {
    if (group != nullptr) result.offsets = group->offsets().fetch_all();
    return result;
  }
  result.offsets.reserve(params.partitions->size());
  for (const TopicPartition& topic_partition : *params.partitions) {
    result.offsets.push_back(PartitionOffset{
        topic_partition,
        group == nullptr ? CommittedOffset{} : group->offsets().fetch(topic_partition)});
  }
  return result;
}

}  // namespace kgroups::broker
