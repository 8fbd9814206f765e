// SPDX-License-Identifier: Apache-2.0
//
// GroupState: one consumer group of a Topic: its members (sorted by id), each
// member's assignment and positions, the group's committed offsets and its
// rebalance history. Membership changes rebalance (SPEC.md, "Rebalance" and
// "Options"): the assignor splits the partitions anew; eagerly every member's
// positions restart from the committed offsets, cooperatively only those of
// partitions that moved. A partition the group never committed starts where
// the policy's auto.offset.reset says; under "none" it gets no position
// (kNoPosition) until a committed offset appears. Committed offsets outlive
// the members.
// Not thread-safe: Topic holds the group's mutex around every call. The inner
// units cannot fail on valid input; Topic validates arguments first.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "group/group_policy.h"
#include "group/rebalance_history.h"

namespace kgroups {

// A position no poll can read from yet (auto.offset.reset "none", no commit).
inline constexpr std::int64_t kNoPosition = -1;

struct Member {
  std::string id;
  std::vector<int> partitions;          // assigned partitions, ascending
  std::vector<std::int64_t> positions;  // positions[i]: next offset to poll on partitions[i]
};

class GroupState {
 public:
  // What `policy` references must outlive the group.
  GroupState(int num_partitions, GroupPolicy policy);
  // The lab's policy: `assignor`, auto.offset.reset "earliest".
  GroupState(int num_partitions, const Assignor& assignor)
      : GroupState(num_partitions, GroupPolicy{&assignor, OffsetReset::kEarliest, nullptr}) {}

  // Adds the consumer and rebalances; returns false (and does nothing) if it is
  // already a member.
  bool join(std::string_view consumer);

  // Removes the consumer and rebalances; returns false (and does nothing) if it
  // is not a member.
  bool leave(std::string_view consumer);

  // The member with this id, or nullptr.
  [[nodiscard]] Member* find(std::string_view consumer) noexcept;
  [[nodiscard]] const Member* find(std::string_view consumer) const noexcept;

  // The members, sorted by id (bytewise ascending).
  [[nodiscard]] std::span<const Member> members() const noexcept { return members_; }

  // The committed offset of `partition` (0 when none); requires a valid partition.
  [[nodiscard]] std::int64_t committed(int partition) const noexcept {
    const std::int64_t offset = committed_[static_cast<std::size_t>(partition)];
    return offset == kNoCommit ? 0 : offset;
  }
  [[nodiscard]] bool has_committed(int partition) const noexcept {
    return committed_[static_cast<std::size_t>(partition)] != kNoCommit;
  }
  void set_committed(int partition, std::int64_t offset) noexcept {
    committed_[static_cast<std::size_t>(partition)] = offset;
  }

  // Commits each of the member's positions as its partition's committed
  // offset, skipping partitions without a position.
  void commit_positions(const Member& member) noexcept;

  // Gives every partition of the member that has no position the group's
  // committed offset and returns true; if some of them have no committed
  // offset either, changes nothing, puts them in `unresolved` (ascending) and
  // returns false.
  bool resolve_positions(Member& member, std::vector<int>& unresolved) const;

  // The group's rebalances, oldest first (see RebalanceHistory).
  [[nodiscard]] std::vector<Rebalance> rebalances() const { return history_.entries(); }

  static constexpr std::size_t kHistoryCapacity = 1000;

 private:
  static constexpr std::int64_t kNoCommit = -1;

  void rebalance(bool joined, std::string_view consumer);
  // Fills previous_owner_ and previous_position_ from the members (cooperative).
  void remember_positions();
  // Where a member starts on a partition the group never committed, for
  // auto.offset.reset latest and none.
  [[nodiscard]] std::int64_t reset_position(int partition) const;

  int num_partitions_;
  GroupPolicy policy_;
  std::int64_t generation_ = 0;
  std::vector<Member> members_;          // sorted by id, ids unique
  std::vector<std::int64_t> committed_;  // per partition; kNoCommit = none
  RebalanceHistory history_;
  // Scratch for rebalance(), kept to reuse its memory.
  std::vector<std::string_view> member_ids_;
  std::vector<std::vector<int>> previous_;       // previous_[i]: member i's partitions before
  std::vector<std::vector<int>> assignments_;    // the assignor's output
  std::vector<int> previous_owner_;              // per partition: member index before, or -1
  std::vector<std::int64_t> previous_position_;  // per partition: its position before
  std::vector<int> owners_;                      // per partition: member index after, or -1
};

}  // namespace kgroups
