// SPDX-License-Identifier: Apache-2.0
//
// GroupPolicy: what every group of one Topic shares: its assignor (and so its
// rebalance protocol), its auto.offset.reset policy for partitions the group
// never committed (SPEC.md, "auto_offset_reset"), and where to read a
// partition's end offset for "latest".
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "group/assignor.h"

namespace kgroups {

enum class OffsetReset : std::uint8_t { kEarliest, kLatest, kNone };

// The policy a TopicOptions::auto_offset_reset value names; nullopt if none.
[[nodiscard]] constexpr std::optional<OffsetReset> offset_reset_named(
    std::string_view name) noexcept {
  if (name == "earliest") return OffsetReset::kEarliest;
  if (name == "latest") return OffsetReset::kLatest;
  if (name == "none") return OffsetReset::kNone;
  return std::nullopt;
}

// Reads a partition's end offset (taking whatever lock guards it).
class EndOffsets {
 public:
  virtual ~EndOffsets() = default;
  [[nodiscard]] virtual std::int64_t end_offset(int partition) const = 0;
};

// Everything referenced must outlive the groups.
struct GroupPolicy {
  const Assignor* assignor = nullptr;
  OffsetReset reset = OffsetReset::kEarliest;
  const EndOffsets* end_offsets = nullptr;  // required for kLatest
};

}  // namespace kgroups
