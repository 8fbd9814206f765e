// SPDX-License-Identifier: Apache-2.0
//
// PartitionTransactions: the transactions of one partition as its readers need them: the
// first offset of each producer's open transaction (which bounds the last stable offset) and
// the aborted transactions. This is the write side's minimal copy of the interface; the read
// side (branch txnread) owns the real one, with the aborted index Fetch serves.
// Not thread-safe: the broker's network thread owns it, with its partition.
#pragma once

#include <algorithm>
#include <cstdint>
#include <unordered_map>

namespace kgroups::broker {

class PartitionTransactions {
 public:
  // Each transactional batch appended: the first one of an open transaction sets its first
  // offset.
  void on_transactional_append(std::int64_t producer_id, std::int64_t base_offset) {
    open_.try_emplace(producer_id, base_offset);
  }
  // Ends the producer's open transaction at its marker.
  void on_marker(std::int64_t producer_id, std::int64_t /*marker_offset*/, bool /*committed*/) {
    open_.erase(producer_id);
  }
  // The first offset of the oldest open transaction, or `high_watermark` if none is open.
  [[nodiscard]] std::int64_t last_stable_offset(std::int64_t high_watermark) const {
    std::int64_t stable = high_watermark;
    for (const auto& [producer_id, first_offset] : open_) stable = std::min(stable, first_offset);
    return stable;
  }

 private:
  std::unordered_map<std::int64_t, std::int64_t> open_;  // producer id -> first offset
};

}  // namespace kgroups::broker
