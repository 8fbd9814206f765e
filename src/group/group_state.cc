// SPDX-License-Identifier: Apache-2.0
#include "group/group_state.h"

#include <algorithm>

namespace kgroups {
namespace {

bool id_less(const Member& member, std::string_view id) { return member.id < id; }

}  // namespace

GroupState::GroupState(int num_partitions, GroupPolicy policy)
    : num_partitions_(num_partitions),
      policy_(policy),
      committed_(static_cast<std::size_t>(num_partitions), kNoCommit),
      history_(kHistoryCapacity, policy.assignor->protocol()) {}

bool GroupState::join(std::string_view consumer) {
  auto at = std::lower_bound(members_.begin(), members_.end(), consumer, id_less);
  if (at != members_.end() && at->id == consumer) return false;
  members_.insert(at, Member{std::string(consumer), {}, {}});
  rebalance(true, consumer);
  return true;
}

bool GroupState::leave(std::string_view consumer) {
  auto at = std::lower_bound(members_.begin(), members_.end(), consumer, id_less);
  if (at == members_.end() || at->id != consumer) return false;
  members_.erase(at);
  rebalance(false, consumer);
  return true;
}

Member* GroupState::find(std::string_view consumer) noexcept {
  auto at = std::lower_bound(members_.begin(), members_.end(), consumer, id_less);
  return at != members_.end() && at->id == consumer ? &*at : nullptr;
}

const Member* GroupState::find(std::string_view consumer) const noexcept {
  auto at = std::lower_bound(members_.begin(), members_.end(), consumer, id_less);
  return at != members_.end() && at->id == consumer ? &*at : nullptr;
}

void GroupState::commit_positions(const Member& member) noexcept {
  for (std::size_t i = 0; i < member.partitions.size(); ++i) {
    if (member.positions[i] != kNoPosition)
      set_committed(member.partitions[i], member.positions[i]);
  }
}

bool GroupState::resolve_positions(Member& member, std::vector<int>& unresolved) const {
  if (policy_.reset != OffsetReset::kNone) return true;
  for (std::size_t i = 0; i < member.partitions.size(); ++i) {
    if (member.positions[i] == kNoPosition && !has_committed(member.partitions[i])) {
      unresolved.push_back(member.partitions[i]);
    }
  }
  if (!unresolved.empty()) return false;
  for (std::size_t i = 0; i < member.partitions.size(); ++i) {
    if (member.positions[i] == kNoPosition) member.positions[i] = committed(member.partitions[i]);
  }
  return true;
}

std::int64_t GroupState::start_position(int partition) const {
  if (has_committed(partition)) return committed(partition);
  switch (policy_.reset) {
    case OffsetReset::kLatest:
      return policy_.end_offsets->end_offset(partition);
    case OffsetReset::kNone:
      return kNoPosition;
    case OffsetReset::kEarliest:
      break;
  }
  return 0;
}

void GroupState::rebalance(bool joined, std::string_view consumer) {
  const auto partition_count = static_cast<std::size_t>(num_partitions_);
  const std::size_t member_count = members_.size();
  const bool cooperative = policy_.assignor->protocol() == RebalanceProtocol::kCooperative;
  previous_owner_.assign(partition_count, -1);
  if (cooperative) previous_position_.resize(partition_count);
  member_ids_.clear();
  previous_.resize(member_count);
  for (std::size_t i = 0; i < member_count; ++i) {
    Member& member = members_[i];
    member_ids_.push_back(member.id);
    for (std::size_t k = 0; k < member.partitions.size(); ++k) {
      const auto partition = static_cast<std::size_t>(member.partitions[k]);
      previous_owner_[partition] = static_cast<int>(i);
      if (cooperative) previous_position_[partition] = member.positions[k];
    }
    previous_[i].swap(member.partitions);
  }
  assignments_.resize(member_count);
  policy_.assignor->assign(num_partitions_, member_ids_, previous_, assignments_);

  owners_.assign(partition_count, -1);
  for (std::size_t i = 0; i < member_count; ++i) {
    Member& member = members_[i];
    member.partitions.swap(assignments_[i]);
    member.positions.clear();
    for (const int partition : member.partitions) {
      const auto index = static_cast<std::size_t>(partition);
      owners_[index] = static_cast<int>(i);
      const bool kept = cooperative && previous_owner_[index] == static_cast<int>(i);
      member.positions.push_back(kept ? previous_position_[index] : start_position(partition));
    }
  }
  history_.record(++generation_, joined, consumer, owners_);
}

}  // namespace kgroups
