// SPDX-License-Identifier: Apache-2.0
//
// KGROUPS_BENCH_FAULT_IN for the append benchmarks: =huge (always huge pages),
// =populate (4 KiB pages) or =first-touch makes the chunk supply fault in its
// regions that way instead of its default (huge pages where cheap), to compare
// the strategies (docs/PERFORMANCE.md, "Cold appends" and "Issue 32").
#pragma once

#include <cstdlib>
#include <string_view>

#include "memory/chunk_supply.h"

namespace kgroups::bench {

inline void use_fault_in_from_environment() {
  const char* name = std::getenv("KGROUPS_BENCH_FAULT_IN");
  const std::string_view chosen = name == nullptr ? "" : name;
  memory::FaultIn fault_in = memory::ChunkSupplyOptions{}.fault_in;
  if (chosen == "huge") fault_in = memory::FaultIn::kPopulateHugePages;
  if (chosen == "populate") fault_in = memory::FaultIn::kPopulate;
  if (chosen == "first-touch") fault_in = memory::FaultIn::kOnFirstTouch;
  memory::ChunkSupply::shared().set_fault_in(fault_in);
}

}  // namespace kgroups::bench
