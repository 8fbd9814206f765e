// SPDX-License-Identifier: Apache-2.0
//
// MemoryCharge: where a structure that grows with what clients do (the replay tracker's marks,
// the playground's delivered offsets) charges the memory it keeps, so that it counts in a
// share of --max-memory beside what else is there: hold(bytes) takes them if the share has
// room and returns false, taking nothing, if not; release(bytes) gives them back. An empty
// charge counts nothing and always has room (for tests and tools without a budget).
// Not thread-safe: used on the broker's network thread.
#pragma once

#include <cstddef>
#include <functional>

namespace kgroups::broker {

struct MemoryCharge {
  std::function<bool(std::size_t)> take;
  std::function<void(std::size_t)> give_back;

  [[nodiscard]] bool hold(std::size_t bytes) const { return !take || take(bytes); }
  void release(std::size_t bytes) const {
    if (give_back && bytes > 0) give_back(bytes);
  }
};

}  // namespace kgroups::broker
