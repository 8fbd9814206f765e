// SPDX-License-Identifier: Apache-2.0
#include "broker/storage/log_cleaner_timer.h"

#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/redirect_error.hpp>
#include <asio/steady_timer.hpp>
#include <asio/this_coro.hpp>
#include <asio/use_awaitable.hpp>
#include <string>
#include <system_error>

#include "broker/config/memory_plan.h"
#include "broker/runtime/logger.h"

namespace kgroups::broker {

void LogCleanerTimer::start(const asio::any_io_executor& executor) {
  asio::co_spawn(executor, run(), asio::detached);
}

asio::awaitable<void> LogCleanerTimer::run() {
  asio::steady_timer timer(co_await asio::this_coro::executor);
  bool more_work = false;
  for (;;) {
    timer.expires_after(more_work ? std::chrono::milliseconds(0) : interval_);
    std::error_code error;
    co_await timer.async_wait(asio::redirect_error(asio::use_awaitable, error));
    if (error) co_return;
    const std::int64_t now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                                    std::chrono::system_clock::now().time_since_epoch())
                                    .count();
    const CleanerPass pass = cleaner_.run_pass(cluster_, now_ms);
    more_work = pass.more_work;
    if (pass.partitions_cleaned > 0) {
      log_info("log cleaner: finished cleaning " + std::to_string(pass.partitions_cleaned) +
               " partition(s); this pass rewrote " + std::to_string(pass.segments_cleaned) +
               " segment(s) and freed " + format_bytes(pass.memory_freed));
    }
  }
}

}  // namespace kgroups::broker
