// SPDX-License-Identifier: Apache-2.0
#include "broker/runtime/periodic_task.h"

#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/redirect_error.hpp>
#include <asio/steady_timer.hpp>
#include <asio/this_coro.hpp>
#include <asio/use_awaitable.hpp>
#include <system_error>

namespace kgroups::broker {

void PeriodicTask::start(const asio::any_io_executor& executor) {
  asio::co_spawn(executor, run(), asio::detached);
}

asio::awaitable<void> PeriodicTask::run() {
  asio::steady_timer timer(co_await asio::this_coro::executor);
  PassOutcome last = PassOutcome::kDone;
  for (;;) {
    timer.expires_after(last == PassOutcome::kMoreWork ? std::chrono::milliseconds(0) : interval_);
    std::error_code error;
    co_await timer.async_wait(asio::redirect_error(asio::use_awaitable, error));
    if (error) co_return;
    last = pass_();
  }
}

std::int64_t wall_clock_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace kgroups::broker
