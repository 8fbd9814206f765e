// SPDX-License-Identifier: Apache-2.0
#include "broker/append_notifier.h"

#include <algorithm>
#include <asio/redirect_error.hpp>
#include <asio/this_coro.hpp>
#include <asio/use_awaitable.hpp>

namespace kgroups::broker {

asio::awaitable<void> AppendNotifier::wait_until(asio::steady_timer::time_point deadline) {
  asio::steady_timer timer(co_await asio::this_coro::executor, deadline);
  waiting_.push_back(&timer);
  // Unregisters the timer however the wait ends, including the coroutine being destroyed.
  struct Unregister {
    std::vector<asio::steady_timer*>& waiting;
    asio::steady_timer* timer;
    ~Unregister() {
      waiting.erase(std::remove(waiting.begin(), waiting.end(), timer), waiting.end());
    }
  } unregister{waiting_, &timer};
  std::error_code error;  // operation_aborted when woken or cancelled; either way we return
  co_await timer.async_wait(asio::redirect_error(asio::use_awaitable, error));
}

void AppendNotifier::notify_all() {
  for (asio::steady_timer* timer : waiting_) timer->cancel();
}

}  // namespace kgroups::broker
