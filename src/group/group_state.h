// SPDX-License-Identifier: Apache-2.0
//
// GroupState: one consumer group of a Topic: its members (sorted by id), each
// member's assignment and positions, and the group's committed offsets.
// Membership changes rebalance eagerly (SPEC.md, "Rebalance"): the assignor
// splits the partitions anew and every member's positions restart from the
// committed offsets. Committed offsets outlive the members.
// Not thread-safe: Topic holds the group's mutex around every call. The inner
// units cannot fail on valid input; Topic validates arguments first.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "group/assignor.h"

namespace kgroups {

struct Member {
  std::string id;
  std::vector<int> partitions;          // assigned partitions, ascending
  std::vector<std::int64_t> positions;  // positions[i]: next offset to poll on partitions[i]
};

class GroupState {
 public:
  // `assignor` must outlive the group.
  GroupState(int num_partitions, const Assignor& assignor);

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
    return committed_[static_cast<std::size_t>(partition)];
  }
  void set_committed(int partition, std::int64_t offset) noexcept {
    committed_[static_cast<std::size_t>(partition)] = offset;
  }

  // Commits each of the member's positions as its partition's committed offset.
  void commit_positions(const Member& member) noexcept;

 private:
  void rebalance();

  int num_partitions_;
  const Assignor* assignor_;
  std::vector<Member> members_;                // sorted by id, ids unique
  std::vector<std::int64_t> committed_;        // per partition; 0 = nothing committed
  std::vector<std::string_view> member_ids_;   // scratch for rebalance()
  std::vector<std::vector<int>> assignments_;  // scratch for rebalance()
};

}  // namespace kgroups
