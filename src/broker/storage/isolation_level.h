// SPDX-License-Identifier: Apache-2.0
//
// IsolationLevel: which records Fetch (v4+) and ListOffsets (v2+) let a consumer see, as the
// requests' isolation_level field numbers them (Kafka's IsolationLevel ids).
#pragma once

#include <cstdint>
#include <optional>

namespace kgroups::broker {

enum class IsolationLevel : std::int8_t {
  kReadUncommitted = 0,  // everything up to the high watermark, control batches included
  kReadCommitted = 1,    // only below the last stable offset, with aborted transactions listed
};

// The level a request's isolation_level names, or std::nullopt for any other value.
[[nodiscard]] constexpr std::optional<IsolationLevel> isolation_level_from(std::int8_t id) {
  if (id == 0) return IsolationLevel::kReadUncommitted;
  if (id == 1) return IsolationLevel::kReadCommitted;
  return std::nullopt;
}

}  // namespace kgroups::broker
