// SPDX-License-Identifier: Apache-2.0
//
// AppendNotifier: lets long-polling Fetch requests sleep until new records are appended or
// their deadline passes. Produce calls notify_all() after appending; every waiting fetch then
// wakes and re-checks whether it has min_bytes.
// Not thread-safe: used only on the broker's network thread (its io_context's single thread).
#pragma once

#include <asio/awaitable.hpp>
#include <asio/steady_timer.hpp>
#include <vector>

namespace kgroups::broker {

class AppendNotifier {
 public:
  // Suspends the calling coroutine until notify_all() is called, the deadline passes, or the
  // coroutine is cancelled, whichever comes first. Does not throw on any of these.
  asio::awaitable<void> wait_until(asio::steady_timer::time_point deadline);

  // Wakes every coroutine currently in wait_until().
  void notify_all();

  // Number of coroutines currently waiting.
  [[nodiscard]] std::size_t waiting() const { return waiting_.size(); }

 private:
  std::vector<asio::steady_timer*> waiting_;  // timers of the suspended waiters
};

}  // namespace kgroups::broker
