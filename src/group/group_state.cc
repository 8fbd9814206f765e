// SPDX-License-Identifier: Apache-2.0
#include "group/group_state.h"

#include <algorithm>

namespace kgroups {
namespace {

bool id_less(const Member& member, std::string_view id) { return member.id < id; }

}  // namespace

GroupState::GroupState(int num_partitions, const Assignor& assignor)
    : num_partitions_(num_partitions),
      assignor_(&assignor),
      committed_(static_cast<std::size_t>(num_partitions), 0) {}

bool GroupState::join(std::string_view consumer) {
  auto at = std::lower_bound(members_.begin(), members_.end(), consumer, id_less);
  if (at != members_.end() && at->id == consumer) return false;
  members_.insert(at, Member{std::string(consumer), {}, {}});
  rebalance();
  return true;
}

bool GroupState::leave(std::string_view consumer) {
  auto at = std::lower_bound(members_.begin(), members_.end(), consumer, id_less);
  if (at == members_.end() || at->id != consumer) return false;
  members_.erase(at);
  rebalance();
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
    set_committed(member.partitions[i], member.positions[i]);
  }
}

void GroupState::rebalance() {
  member_ids_.clear();
  for (const Member& member : members_) member_ids_.push_back(member.id);
  assignments_.resize(members_.size());
  assignor_->assign(num_partitions_, member_ids_, assignments_);
  for (std::size_t i = 0; i < members_.size(); ++i) {
    Member& member = members_[i];
    member.partitions.swap(assignments_[i]);
    member.positions.clear();
    for (const int partition : member.partitions) member.positions.push_back(committed(partition));
  }
}

}  // namespace kgroups
