// SPDX-License-Identifier: Apache-2.0
#include "broker/runtime/memory_waiters.h"

#include <algorithm>
#include <asio/redirect_error.hpp>
#include <asio/this_coro.hpp>
#include <asio/use_awaitable.hpp>
#include <system_error>

namespace kgroups::broker {

asio::awaitable<void> MemoryWaiters::wait(asio::steady_timer& timer) {
  waiting_.push_back(&timer);
  // Unregisters the timer however the wait ends, including the coroutine being destroyed.
  struct Unregister {
    std::vector<asio::steady_timer*>& waiting;
    asio::steady_timer* timer;
    ~Unregister() {
      const auto found = std::find(waiting.begin(), waiting.end(), timer);
      if (found != waiting.end()) waiting.erase(found);
    }
  } unregister{waiting_, &timer};
  std::error_code error;  // operation_aborted when woken or cancelled; either way we return
  co_await timer.async_wait(asio::redirect_error(asio::use_awaitable, error));
}

asio::awaitable<void> MemoryWaiters::wait_until(asio::steady_timer::time_point deadline) {
  asio::steady_timer timer(co_await asio::this_coro::executor, deadline);
  co_await wait(timer);
}

void MemoryWaiters::wake_all() {
  // Every waiter resumes (cancel() only queues its resumption) and registers again if it
  // still waits, so forgetting them all here keeps unregistering cheap with many waiters.
  std::vector<asio::steady_timer*> woken;
  woken.swap(waiting_);
  for (asio::steady_timer* timer : woken) timer->cancel();
}

}  // namespace kgroups::broker
