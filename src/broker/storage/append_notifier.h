// SPDX-License-Identifier: Apache-2.0
//
// AppendNotifier: lets long-polling Fetch requests sleep until records are appended to one of
// the partitions they read, or their deadline passes. Produce calls notify() for each
// partition it appended to; only the fetches waiting on that partition wake, and each then
// re-checks whether it has min_bytes.
// Not thread-safe: used only on the broker's network thread (its io_context's single thread).
#pragma once

#include <asio/awaitable.hpp>
#include <asio/steady_timer.hpp>
#include <cstddef>
#include <span>
#include <unordered_map>
#include <vector>

#include "broker/storage/batch_log.h"

namespace kgroups::broker {

class AppendNotifier {
 public:
  // Suspends the calling coroutine until notify() is called for one of `partitions`, the
  // deadline passes, or the coroutine is cancelled, whichever comes first. Does not throw on
  // any of these. The pointers are only compared, never read, so a partition may be deleted
  // while it waits (its deleter calls notify() first); the caller must not read it after
  // waking without looking it up again.
  asio::awaitable<void> wait_until(asio::steady_timer::time_point deadline,
                                   std::span<const BatchLog* const> partitions);

  // Wakes every coroutine waiting on `partition`.
  void notify(const BatchLog& partition);

  // Number of coroutines currently waiting.
  [[nodiscard]] std::size_t waiting() const { return waiters_; }

 private:
  void add(const BatchLog* partition, asio::steady_timer* timer);
  void remove(const BatchLog* partition, asio::steady_timer* timer);

  // The timers of the suspended waiters, by the partition they wait on.
  std::unordered_map<const BatchLog*, std::vector<asio::steady_timer*>> waiting_;
  std::size_t waiters_ = 0;
};

}  // namespace kgroups::broker
