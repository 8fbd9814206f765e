// SPDX-License-Identifier: Apache-2.0
//
// await_callback(): turns a call that completes through a callback (the group coordinator's
// parked JoinGroup and SyncGroup calls, issue 6) into something a handler can co_await. The
// coroutine suspends until the callback runs, then resumes with the callback's value.
// The callback may run inline (before `start` returns) or later; either way the coroutine
// resumes from the io_context, never from inside the callback, so the code that invoked the
// callback finishes first. The callback must run exactly once: if it never does, the
// awaiting coroutine stays suspended until the io_context is destroyed. While it is
// suspended it counts as pending work, so io_context::run() does not return.
// Not thread-safe: use on the broker's network thread.
#pragma once

#include <asio/async_result.hpp>
#include <asio/awaitable.hpp>
#include <asio/post.hpp>
#include <asio/this_coro.hpp>
#include <asio/use_awaitable.hpp>
#include <functional>
#include <memory>
#include <utility>

namespace kgroups::broker {

// Calls start(callback), where callback is a copyable std::function<void(T)>, and returns the
// value the callback is given.
template <class T, class Start>
asio::awaitable<T> await_callback(Start start) {
  auto executor = co_await asio::this_coro::executor;
  co_return co_await asio::async_initiate<const asio::use_awaitable_t<>&, void(T)>(
      [&start, executor](auto handler) {
        auto shared = std::make_shared<decltype(handler)>(std::move(handler));
        std::function<void(T)> callback = [shared, executor](T value) {
          asio::post(executor, [shared, value = std::move(value)]() mutable {
            std::move (*shared)(std::move(value));
          });
        };
        start(std::move(callback));
      },
      asio::use_awaitable);
}

}  // namespace kgroups::broker
