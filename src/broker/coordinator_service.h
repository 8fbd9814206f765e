// SPDX-License-Identifier: Apache-2.0
//
// CoordinatorService: the broker's group coordinator (broker/coordinator/) on the real clock,
// with one asio::steady_timer that fires its expiries (sessions, rebalance and sync timeouts)
// at next_deadline() when no request arrives to apply them. Its log lines go to the broker's
// log at INFO.
// Not thread-safe: lives on the broker's network thread like the rest of Broker.
#pragma once

#include <asio/any_io_executor.hpp>
#include <asio/awaitable.hpp>
#include <asio/steady_timer.hpp>

#include "broker/coordinator/clock.h"
#include "broker/coordinator/coordinator_config.h"
#include "broker/coordinator/group_coordinator.h"

namespace kgroups::broker {

class CoordinatorService {
 public:
  explicit CoordinatorService(CoordinatorConfig config);

  CoordinatorService(const CoordinatorService&) = delete;
  CoordinatorService& operator=(const CoordinatorService&) = delete;

  GroupCoordinator& coordinator() { return coordinator_; }

  // Call after every coordinator call that may have moved a deadline: starts the expiry
  // timer on `executor` the first time, and wakes it if the next deadline is now earlier than
  // the one it waits for.
  void schedule_expiries(const asio::any_io_executor& executor);

 private:
  // Waits for the next deadline and applies what is due, for as long as the io_context runs.
  asio::awaitable<void> run_expiries();

  SteadyClock clock_;
  GroupCoordinator coordinator_;
  bool running_ = false;                 // run_expiries() is spawned and not destroyed
  asio::steady_timer* timer_ = nullptr;  // run_expiries()'s timer, once it runs
  Clock::TimePoint armed_for_ = Clock::TimePoint::max();  // what timer_ waits for
};

}  // namespace kgroups::broker
