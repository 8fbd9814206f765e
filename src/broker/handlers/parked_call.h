// SPDX-License-Identifier: Apache-2.0
//
// await_parked_call(): lets a group handler co_await a coordinator call that completes
// through a callback (JoinGroup and SyncGroup park until the rebalance gets there).
// The coroutine waits on a timer in its own frame, which the callback cancels, so the
// io_context owns the waiting coroutine: if the io_context is destroyed first (shutdown),
// the frame goes with it and a later callback only fills an orphaned slot. The callback may
// run inline (before `start` returns) or from a later coordinator call; the coroutine always
// resumes from the io_context.
// Not thread-safe: use on the broker's network thread.
#pragma once

#include <asio/awaitable.hpp>
#include <asio/redirect_error.hpp>
#include <asio/steady_timer.hpp>
#include <asio/this_coro.hpp>
#include <asio/use_awaitable.hpp>
#include <functional>
#include <memory>
#include <optional>
#include <system_error>
#include <utility>

namespace kgroups::broker::handlers {

// Calls start(callback) with a std::function<void(T)> and returns the value it receives.
template <class T, class Start>
asio::awaitable<T> await_parked_call(Start start) {
  struct Slot {
    std::optional<T> value;
    asio::steady_timer* timer = nullptr;  // null once the waiting frame is gone
  };
  auto slot = std::make_shared<Slot>();
  asio::steady_timer timer(co_await asio::this_coro::executor,
                           asio::steady_timer::time_point::max());
  slot->timer = &timer;
  struct Detach {
    Slot& slot;
    ~Detach() { slot.timer = nullptr; }
  } detach{*slot};
  start(std::function<void(T)>([slot](T value) {
    slot->value = std::move(value);
    if (slot->timer != nullptr) slot->timer->cancel();
  }));
  while (!slot->value) {
    std::error_code cancelled;
    co_await timer.async_wait(asio::redirect_error(asio::use_awaitable, cancelled));
  }
  co_return std::move(*slot->value);
}

}  // namespace kgroups::broker::handlers
