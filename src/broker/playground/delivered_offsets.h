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
// Not thread-safe: lives on the broker's network thread.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "protocol/uuid.h"

namespace kgroups::broker::playground {

struct OffsetRange {
  std::int64_t from = 0;  // first offset
  std::int64_t to = 0;    // end offset, exclusive
};

class DeliveredOffsets {
 public:
  // Records that [delivered.from, delivered.to) of the partition was delivered to the group;
  // returns the part of it the group had been delivered before, or nullopt if none.
  std::optional<OffsetRange> deliver(std::string_view group_id, const protocol::Uuid& topic_id,
                                     std::int32_t partition, OffsetRange delivered);

  // Forgets every group but those `keep(group_id)` is true for.
  template <class Keep>
  void forget_groups_except(Keep&& keep) {
    std::erase_if(delivered_end_, [&keep](const auto& entry) { return !keep(entry.first); });
  }

  // Partitions with a delivered end, all groups together.
  [[nodiscard]] std::size_t size() const;

 private:
  using PartitionKey = std::pair<protocol::Uuid, std::int32_t>;
  std::map<std::string, std::map<PartitionKey, std::int64_t>, std::less<>> delivered_end_;
};

}  // namespace kgroups::broker::playground
