// SPDX-License-Identifier: Apache-2.0
//
// RebalanceHistory: the most recent rebalances of one group (SPEC.md,
// "rebalances(group)"), kept cheaply enough to record on every rebalance: an
// entry holds only its generation, the join or leave that caused it and the
// owner of every partition (an index into that generation's members). The
// members of each generation, and what each member revoked and was assigned,
// are rebuilt when the history is read, by replaying the joins and leaves
// from a base: the members and owners just before the oldest kept entry.
// Once full, recording reuses the oldest entry's memory.
// Not thread-safe: the group's mutex guards it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "group/assignor.h"
#include "kgroups/rebalance.h"

namespace kgroups {

class RebalanceHistory {
 public:
  // Keeps the latest `capacity` (>= 1) rebalances.
  RebalanceHistory(std::size_t capacity, RebalanceProtocol protocol);

  // Records a rebalance caused by `consumer` joining (or leaving); `owners[p]`
  // is the index of partition p's owner among the new members sorted by id,
  // -1 for none.
  void record(std::int64_t generation, bool joined, std::string_view consumer,
              std::span<const int> owners);

  // The kept rebalances, oldest first.
  [[nodiscard]] std::vector<Rebalance> entries() const;

 private:
  struct Entry {
    std::int64_t generation = 0;
    bool joined = false;
    std::string consumer;
    std::vector<int> owners;
  };

  [[nodiscard]] const Entry& kept(std::size_t age) const noexcept {
    return entries_[(oldest_ + age) % entries_.size()];
  }
  void drop_oldest();

  RebalanceProtocol protocol_;
  std::size_t capacity_;
  std::vector<Entry> entries_;             // a ring once it holds capacity_ entries
  std::size_t oldest_ = 0;                 // index of the oldest kept entry
  std::vector<std::string> base_members_;  // before the oldest kept entry, sorted
  std::vector<int> base_owners_;           // ditto; empty = nothing owned
};

}  // namespace kgroups
