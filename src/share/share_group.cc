// SPDX-License-Identifier: Apache-2.0
#include "share/share_group.h"

#include <algorithm>
#include <cstddef>

#include "share/share_assignor.h"

namespace kgroups::share {
namespace {

bool by_id(const ShareMember& member, std::string_view id) { return member.id < id; }

}  // namespace

ShareGroup::ShareGroup(int num_partitions, const ShareLimits& limits)
    : num_partitions_(num_partitions),
      limits_(limits),
      shares_(static_cast<std::size_t>(num_partitions)) {}

const ShareMember* ShareGroup::find(std::string_view member) const noexcept {
  const auto found = std::lower_bound(members_.begin(), members_.end(), member, by_id);
  return found != members_.end() && found->id == member ? &*found : nullptr;
}

ShareMember* ShareGroup::find_mutable(std::string_view member) noexcept {
  return const_cast<ShareMember*>(std::as_const(*this).find(member));
}

const SharePartition* ShareGroup::partition(int partition) const noexcept {
  const std::optional<SharePartition>& share = shares_[static_cast<std::size_t>(partition)];
  return share ? &*share : nullptr;
}

MemberIndex ShareGroup::free_index() const {
  // The smallest index no member has: a departed member's records were all released.
  std::vector<MemberIndex> used;
  used.reserve(members_.size());
  for (const ShareMember& member : members_) used.push_back(member.index);
  std::sort(used.begin(), used.end());
  MemberIndex index = 0;
  for (const MemberIndex taken : used) {
    if (taken != index) break;
    ++index;
  }
  return index;
}

void ShareGroup::reassign(std::vector<ShareMember>& members,
                          const StartOffsetFor& start_offset_for) {
  std::vector<std::string_view> ids;
  std::vector<std::vector<int>> current;
  ids.reserve(members.size());
  current.reserve(members.size());
  for (const ShareMember& member : members) {
    ids.push_back(member.id);
    current.push_back(member.partitions);
  }
  std::vector<int> every_partition(static_cast<std::size_t>(num_partitions_));
  for (int p = 0; p < num_partitions_; ++p) every_partition[static_cast<std::size_t>(p)] = p;
  const std::vector<std::vector<int>> subscribed(members.size(), every_partition);
  const std::vector<int> topic_of(static_cast<std::size_t>(num_partitions_), 0);
  std::vector<std::vector<int>> assigned =
      assign_share_partitions({ids, subscribed, current, topic_of});

  // The share-partitions assigned for the first time, with their start offsets.
  std::vector<std::pair<int, std::int64_t>> created;
  for (const std::vector<int>& partitions : assigned) {
    for (const int p : partitions) {
      const bool known = shares_[static_cast<std::size_t>(p)].has_value() ||
                         std::any_of(created.begin(), created.end(),
                                     [p](const auto& entry) { return entry.first == p; });
      if (!known) created.emplace_back(p, start_offset_for(p));
    }
  }
  // From here on nothing throws.
  for (std::size_t m = 0; m < members.size(); ++m) members[m].partitions.swap(assigned[m]);
  for (const auto& [p, start] : created) shares_[static_cast<std::size_t>(p)].emplace(start);
}

bool ShareGroup::join(std::string_view member, const StartOffsetFor& start_offset_for) {
  const auto at = std::lower_bound(members_.begin(), members_.end(), member, by_id);
  if (at != members_.end() && at->id == member) return false;
  std::vector<ShareMember> members = members_;
  members.insert(members.begin() + (at - members_.begin()),
                 ShareMember{std::string(member), free_index(), {}});
  reassign(members, start_offset_for);
  members_.swap(members);
  return true;
}

bool ShareGroup::leave(std::string_view member, const StartOffsetFor& start_offset_for) {
  const auto at = std::lower_bound(members_.begin(), members_.end(), member, by_id);
  if (at == members_.end() || at->id != member) return false;
  std::vector<ShareMember> members = members_;
  members.erase(members.begin() + (at - members_.begin()));
  reassign(members, start_offset_for);
  // From here on nothing throws: release what it held, then take the new assignment.
  for (const int p : at->partitions) {
    shares_[static_cast<std::size_t>(p)]->release_member(at->index, limits_);
  }
  members_.swap(members);
  return true;
}

int ShareGroup::acquire(const ShareMember& member, int partition, std::int64_t log_end,
                        int max_records, std::int64_t now_ms, std::vector<AcquiredRange>& out) {
  SharePartition& share = *shares_[static_cast<std::size_t>(partition)];
  const int taken = share.acquire(member.index, log_end, max_records, now_ms, limits_, out);
  if (taken > 0) {
    next_deadline_ = std::min(next_deadline_, now_ms + limits_.record_lock_duration_ms);
  }
  return taken;
}

std::optional<std::pair<int, std::int64_t>> ShareGroup::first_not_held(
    const ShareMember& member, std::span<const std::pair<int, std::int64_t>> records) const {
  for (const auto& [p, offset] : records) {
    const SharePartition* share =
        p >= 0 && p < num_partitions_ ? partition(p) : static_cast<const SharePartition*>(nullptr);
    if (share == nullptr || !share->held_by(member.index, offset)) return std::pair{p, offset};
  }
  return std::nullopt;
}

void ShareGroup::acknowledge(const ShareMember& member,
                             std::span<const std::pair<int, std::int64_t>> records,
                             AcknowledgeType type) {
  // One record at a time: a record named twice is no longer held the second time, which
  // SharePartition refuses without a change, as it skips a repeat within one call.
  for (const auto& [p, offset] : records) {
    const Acknowledgement one{offset, type};
    (void)shares_[static_cast<std::size_t>(p)]->acknowledge(member.index, std::span(&one, 1),
                                                            limits_);
  }
}

void ShareGroup::acknowledge_all(const ShareMember& member, AcknowledgeType type) {
  std::size_t in_window = 0;
  for (const int p : member.partitions) {
    const SharePartition& share = *shares_[static_cast<std::size_t>(p)];
    in_window =
        std::max(in_window, static_cast<std::size_t>(share.end_offset() - share.start_offset()));
  }
  acks_.reserve(in_window);
  // From here on nothing throws.
  for (const int p : member.partitions) {
    SharePartition& share = *shares_[static_cast<std::size_t>(p)];
    acks_.clear();
    for (std::int64_t offset = share.start_offset(); offset < share.end_offset(); ++offset) {
      if (share.held_by(member.index, offset)) acks_.push_back({offset, type});
    }
    if (!acks_.empty()) (void)share.acknowledge(member.index, acks_, limits_);
  }
}

void ShareGroup::expire_locks(std::int64_t now_ms) {
  if (next_deadline_ > now_ms) return;
  std::int64_t next = kNoDeadline;
  for (std::optional<SharePartition>& share : shares_) {
    if (!share) continue;
    share->expire_locks(now_ms, limits_);
    if (const std::optional<std::int64_t> deadline = share->next_lock_deadline()) {
      next = std::min(next, *deadline);
    }
  }
  next_deadline_ = next;
}

}  // namespace kgroups::share
