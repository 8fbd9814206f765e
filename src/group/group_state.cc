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
      history_(kHistoryCapacity, num_partitions, policy.assignor->protocol()) {}

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

std::int64_t GroupState::reset_position(int partition) const {
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
  const std::size_t member_count = members_.size();
  const bool cooperative = policy_.assignor->protocol() == RebalanceProtocol::kCooperative;
  if (cooperative) remember_positions();
  member_ids_.clear();
  previous_.resize(member_count);
  for (std::size_t i = 0; i < member_count; ++i) {
    member_ids_.push_back(members_[i].id);
    previous_[i].swap(members_[i].partitions);
  }
  assignments_.resize(member_count);
  policy_.assignor->assign(num_partitions_, member_ids_, previous_, assignments_);

  // Raw pointers: writing positions through a vector would make the compiler
  // reload every vector's data pointer on each partition. The history entry is
  // written in the same pass.
  const std::int64_t* const committed = committed_.data();
  const RebalanceHistory::Recording recording =
      history_.record(++generation_, joined, consumer, member_count);
  std::size_t recorded = 0;
  const bool earliest = policy_.reset == OffsetReset::kEarliest;
  for (std::size_t i = 0; i < member_count; ++i) {
    Member& member = members_[i];
    member.partitions.swap(assignments_[i]);
    const std::size_t count = member.partitions.size();
    member.positions.resize(count);
    const int* const partitions = member.partitions.data();
    std::int64_t* const positions = member.positions.data();
    const auto owner = static_cast<int>(i);
    for (std::size_t k = 0; k < count; ++k) {
      const auto index = static_cast<std::size_t>(partitions[k]);
      recording.partitions[recorded + k] = partitions[k];
      const std::int64_t offset = committed[index];
      if (cooperative && previous_owner_[index] == owner) {
        positions[k] = previous_position_[index];
      } else if (offset != kNoCommit) {
        positions[k] = offset;
      } else {
        positions[k] = earliest ? 0 : reset_position(partitions[k]);
      }
    }
    recorded += count;
    recording.ends[i] = recorded;
  }
}

void GroupState::remember_positions() {
  const auto partition_count = static_cast<std::size_t>(num_partitions_);
  previous_owner_.assign(partition_count, -1);
  previous_position_.resize(partition_count);
  for (std::size_t i = 0; i < members_.size(); ++i) {
    const Member& member = members_[i];
    for (std::size_t k = 0; k < member.partitions.size(); ++k) {
      const auto partition = static_cast<std::size_t>(member.partitions[k]);
      previous_owner_[partition] = static_cast<int>(i);
      previous_position_[partition] = member.positions[k];
    }
  }
}

}  // namespace kgroups
