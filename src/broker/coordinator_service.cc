// SPDX-License-Identifier: Apache-2.0
#include "broker/coordinator_service.h"

#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/redirect_error.hpp>
#include <asio/this_coro.hpp>
#include <asio/use_awaitable.hpp>
#include <system_error>

#include "broker/logger.h"

namespace kgroups::broker {

CoordinatorService::CoordinatorService(CoordinatorConfig config)
    : coordinator_(config, clock_, [](std::string_view line) { log_info(line); }) {}

void CoordinatorService::schedule_expiries(const asio::any_io_executor& executor) {
  if (!running_) {
    running_ = true;
    asio::co_spawn(executor, run_expiries(), asio::detached);
    return;
  }
  std::optional<Clock::TimePoint> deadline = coordinator_.next_deadline();
  if (timer_ != nullptr && deadline && *deadline < armed_for_) timer_->cancel();
}

asio::awaitable<void> CoordinatorService::run_expiries() {
  asio::steady_timer timer(co_await asio::this_coro::executor);
  timer_ = &timer;
  // The io_context may destroy this coroutine (at shutdown) while it waits.
  struct Forget {
    CoordinatorService* service;
    ~Forget() {
      service->timer_ = nullptr;
      service->running_ = false;
      service->armed_for_ = Clock::TimePoint::max();
    }
  } forget{this};
  for (;;) {
    armed_for_ = coordinator_.next_deadline().value_or(Clock::TimePoint::max());
    timer.expires_at(armed_for_);
    std::error_code error;  // cancelled: a deadline moved earlier; recompute
    co_await timer.async_wait(asio::redirect_error(asio::use_awaitable, error));
    coordinator_.poll_timers();
  }
}

}  // namespace kgroups::broker
