// SPDX-License-Identifier: Apache-2.0
//
// TransactionTimer: aborts transactions open longer than their timeout, checking every
// `interval` on the broker's io_context (TransactionCoordinator::abort_expired()).
// Not thread-safe: runs on the broker's network thread.
#pragma once

#include <asio/any_io_executor.hpp>
#include <asio/awaitable.hpp>
#include <chrono>

#include "broker/transactions/transaction_coordinator.h"

namespace kgroups::broker {

class TransactionTimer {
 public:
  // `transactions` must outlive the timer's coroutine (the io_context).
  TransactionTimer(TransactionCoordinator& transactions, std::chrono::milliseconds interval)
      : transactions_(transactions), interval_(interval) {}

  // Starts the periodic check on `executor`; it runs until the io_context stops.
  void start(const asio::any_io_executor& executor);

 private:
  asio::awaitable<void> run();

  TransactionCoordinator& transactions_;
  std::chrono::milliseconds interval_;
};

}  // namespace kgroups::broker
