// SPDX-License-Identifier: Apache-2.0
//
// MemoryWaiters: the coroutines waiting for a ByteBudget to have room (Broker's
// request_memory() or response_memory()). A waiter waits on a timer that wake_all() cancels;
// whoever gives bytes back to the budget calls wake_all(), and each waiter then checks again
// whether the room it needs is there (and waits again if not). Nothing is handed out in
// order: the first waiter to run after a wake-up takes what it finds.
// Not thread-safe: used only on the broker's network thread (its io_context's single thread).
#pragma once

#include <asio/awaitable.hpp>
#include <asio/steady_timer.hpp>
#include <cstddef>
#include <vector>

namespace kgroups::broker {

class MemoryWaiters {
 public:
  MemoryWaiters() = default;
  MemoryWaiters(const MemoryWaiters&) = delete;
  MemoryWaiters& operator=(const MemoryWaiters&) = delete;

  // Suspends the calling coroutine until wake_all(), `timer`'s expiry, a cancel() of `timer`
  // by its owner, or the coroutine's cancellation, whichever comes first; does not throw on
  // any of these. `timer` must be idle (no other wait on it) and outlive the wait.
  asio::awaitable<void> wait(asio::steady_timer& timer);

  // Like wait(), on a timer of its own that expires at `deadline`.
  asio::awaitable<void> wait_until(asio::steady_timer::time_point deadline);

  // Wakes every coroutine currently waiting.
  void wake_all();

  // Number of coroutines currently waiting.
  [[nodiscard]] std::size_t waiting() const { return waiting_.size(); }

 private:
  std::vector<asio::steady_timer*> waiting_;  // timers of the suspended waiters
};

}  // namespace kgroups::broker
