// SPDX-License-Identifier: Apache-2.0
#include "broker/coordinator/coordinated_share_group.h"

#include <chrono>

namespace kgroups::broker {

ShareGroupMember* CoordinatedShareGroup::member(std::string_view member_id) {
  const auto found = members_.find(member_id);
  return found == members_.end() ? nullptr : &found->second;
}

const ShareGroupMember* CoordinatedShareGroup::member(std::string_view member_id) const {
  const auto found = members_.find(member_id);
  return found == members_.end() ? nullptr : &found->second;
}

ShareGroupMember& CoordinatedShareGroup::add_member(std::string member_id) {
  share::MemberIndex index = next_index_;
  if (!free_indices_.empty()) {
    index = free_indices_.back();
    free_indices_.pop_back();
  } else {
    ++next_index_;
  }
  ShareGroupMember& member = members_[member_id];
  member.member_id = std::move(member_id);
  member.index = index;
  return member;
}

void CoordinatedShareGroup::remove_member(std::string_view member_id) {
  const auto found = members_.find(member_id);
  if (found == members_.end()) return;
  free_indices_.push_back(found->second.index);
  members_.erase(found);
}

share::SharePartition* CoordinatedShareGroup::partition(const SharePartitionKey& key) {
  const auto found = partitions_.find(key);
  return found == partitions_.end() ? nullptr : &found->second;
}

std::optional<Clock::TimePoint> CoordinatedShareGroup::next_deadline(
    Clock::TimePoint lock_epoch) const {
  std::optional<Clock::TimePoint> earliest;
  auto consider = [&earliest](Clock::TimePoint at) {
    if (!earliest || at < *earliest) earliest = at;
  };
  for (const auto& [id, member] : members_) consider(member.session_deadline);
  for (const auto& [key, partition] : partitions_) {
    if (const auto lock = partition.next_lock_deadline()) {
      consider(lock_epoch + std::chrono::milliseconds(*lock));
    }
  }
  return earliest;
}

}  // namespace kgroups::broker
