// SPDX-License-Identifier: Apache-2.0
#include "broker/transactions/transaction_timer.h"

#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/redirect_error.hpp>
#include <asio/steady_timer.hpp>
#include <asio/this_coro.hpp>
#include <asio/use_awaitable.hpp>
#include <system_error>

namespace kgroups::broker {

void TransactionTimer::start(const asio::any_io_executor& executor) {
  asio::co_spawn(executor, run(), asio::detached);
}

asio::awaitable<void> TransactionTimer::run() {
  asio::steady_timer timer(co_await asio::this_coro::executor);
  for (;;) {
    timer.expires_after(interval_);
    std::error_code error;
    co_await timer.async_wait(asio::redirect_error(asio::use_awaitable, error));
    if (error) co_return;
    transactions_.abort_expired();
  }
}

}  // namespace kgroups::broker
