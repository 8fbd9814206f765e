// SPDX-License-Identifier: Apache-2.0
//
// A MemoryCharge over a counter the test reads: it holds at most `room` bytes in `held`, and
// refuses (taking nothing) what would go beyond. Tests only.
#pragma once

#include <cstddef>

#include "broker/runtime/memory_charge.h"

namespace kgroups::broker::testing {

inline MemoryCharge charge_within(std::size_t& held, std::size_t room) {
  return MemoryCharge{.take =
                          [&held, room](std::size_t bytes) {
                            if (held + bytes > room) return false;
                            held += bytes;
                            return true;
                          },
                      .give_back = [&held](std::size_t bytes) { held -= bytes; }};
}

}  // namespace kgroups::broker::testing
