// SPDX-License-Identifier: Apache-2.0
//
// DeliveredOffsets: what the playground's simulated consumers have delivered, per group and
// partition: the end (exclusive) of the highest offset delivered to any of the group's
// simulated consumers. A delivery that starts below it is a replay (after a rebalance or a
// crash, records consumed but not committed are read again by the partition's next owner).
// Partitions are keyed by topic id, so a topic deleted and created again starts afresh.
// A group's entries go when the playground forgets its last consumer of the group
// (forget_groups_except), so they are bounded by the partitions the consumers it keeps read
// (32 running and 32 stopped at most, each on one topic); the group id is kept once per group.
// Every entry is charged, as it is made, to the memory given at construction (the broker
// passes the groups' share of --max-memory) and given back when its group is forgotten; when
// the share is full a delivery is not tracked (deliver() reports no replay for it) and
// untracked() counts it.
// Not thread-safe: lives on the broker's network thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "broker/runtime/memory_charge.h"
#include "protocol/uuid.h"

namespace kgroups::broker::playground {

struct OffsetRange {
  std::int64_t from = 0;  // first offset
  std::int64_t to = 0;    // end offset, exclusive
};

class DeliveredOffsets {
 public:
  // What an entry costs: a partition's (a tree node with its key and end), and a group's
  // beyond its id's bytes.
  static constexpr std::size_t kPartitionEntryBytes = 96;
  static constexpr std::size_t kGroupEntryBytes = 128;

  explicit DeliveredOffsets(MemoryCharge memory = {}) : memory_(std::move(memory)) {}
  ~DeliveredOffsets();
  DeliveredOffsets(const DeliveredOffsets&) = delete;
  DeliveredOffsets& operator=(const DeliveredOffsets&) = delete;

  // Records that [delivered.from, delivered.to) of the partition was delivered to the group;
  // returns the part of it the group had been delivered before, or nullopt if none (or if
  // the memory had no room to track the partition).
  std::optional<OffsetRange> deliver(std::string_view group_id, const protocol::Uuid& topic_id,
                                     std::int32_t partition, OffsetRange delivered);

  // Forgets every group but those `keep(group_id)` is true for, releasing their memory.
  template <class Keep>
  void forget_groups_except(Keep&& keep) {
    std::erase_if(groups_, [this, &keep](const auto& entry) {
      if (keep(entry.first)) return false;
      release(entry.second.held_bytes);
      return true;
    });
  }

  // Partitions with a delivered end, all groups together.
  [[nodiscard]] std::size_t size() const;
  // Bytes charged now; deliveries not tracked for want of memory.
  [[nodiscard]] std::size_t held_bytes() const { return held_bytes_; }
  [[nodiscard]] std::uint64_t untracked() const { return untracked_; }

 private:
  using PartitionKey = std::pair<protocol::Uuid, std::int32_t>;
  struct Group {
    std::map<PartitionKey, std::int64_t> delivered_end;
    std::size_t held_bytes = 0;  // charged for this group and its partitions
  };

  bool hold(std::size_t bytes);
  void release(std::size_t bytes);

  MemoryCharge memory_;
  std::map<std::string, Group, std::less<>> groups_;
  std::size_t held_bytes_ = 0;
  std::uint64_t untracked_ = 0;
};

}  // namespace kgroups::broker::playground
