// SPDX-License-Identifier: Apache-2.0
//
// RebalanceHistory: the most recent rebalances of one group (SPEC.md,
// "rebalances(group)"), kept cheaply enough to record on every rebalance: an
// entry holds only its generation, the join or leave that caused it and each
// member's partitions, flat in member order. The members of each generation,
// and what each member revoked and was assigned, are rebuilt when the history
// is read, by replaying the joins and leaves from a base: the members and
// partitions just before the oldest stored entry. Old entries are folded into
// the base in batches (capacity / 8 at a time), so recording neither copies
// member ids nor allocates once the history is full.
// Not thread-safe: the group's mutex guards it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "group/assignor.h"
#include "kgroups/rebalance.h"

namespace kgroups {

class RebalanceHistory {
 public:
  // Keeps the latest `capacity` (>= 1) rebalances of a group of a topic with
  // `num_partitions` partitions.
  RebalanceHistory(std::size_t capacity, int num_partitions, RebalanceProtocol protocol);

  // Where record() writes the new generation's partitions: member i's, in
  // ascending order, at partitions[ends[i - 1] .. ends[i]) (from 0 for i = 0).
  struct Recording {
    int* partitions;    // room for every partition of the topic
    std::size_t* ends;  // room for member_count ends
  };

  // Records a rebalance caused by `consumer` joining (or leaving) that leaves
  // `member_count` members (sorted by id); the caller fills the Recording
  // before any other call. With members, every partition belongs to one.
  Recording record(std::int64_t generation, bool joined, std::string_view consumer,
                   std::size_t member_count);

  // The kept rebalances, oldest first.
  [[nodiscard]] std::vector<Rebalance> entries() const;

 private:
  struct Entry {
    std::int64_t generation = 0;
    bool joined = false;
    std::string consumer;
    std::vector<int> partitions;    // every member's partitions, in member order
    std::vector<std::size_t> ends;  // ends[i]: one past member i's last in `partitions`
  };

  // Folds the oldest `count` entries into the base.
  void fold_oldest(std::size_t count);

  RebalanceProtocol protocol_;
  std::size_t capacity_;
  std::size_t fold_batch_;
  int num_partitions_;
  std::vector<Entry> entries_;             // oldest first; at most capacity_ + fold_batch_ - 1
  std::vector<Entry> spare_;               // folded entries, kept to reuse their memory
  std::vector<std::string> base_members_;  // before entries_.front(), sorted
  Entry base_;                             // its partitions and ends; empty = nothing owned
};

}  // namespace kgroups
