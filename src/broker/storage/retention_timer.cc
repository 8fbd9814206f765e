// SPDX-License-Identifier: Apache-2.0
#include "broker/storage/retention_timer.h"

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

void RetentionTimer::start(const asio::any_io_executor& executor) {
  asio::co_spawn(executor, run(), asio::detached);
}

asio::awaitable<void> RetentionTimer::run() {
  asio::steady_timer timer(co_await asio::this_coro::executor);
  for (;;) {
    timer.expires_after(interval_);
    std::error_code error;
    co_await timer.async_wait(asio::redirect_error(asio::use_awaitable, error));
    if (error) co_return;
    const std::int64_t now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                                    std::chrono::system_clock::now().time_since_epoch())
                                    .count();
    const DroppedSegments dropped = cluster_.apply_time_retention(now_ms);
    if (dropped.segments > 0) {
      log_info("retention.ms: dropped " + std::to_string(dropped.segments) + " segment(s), " +
               format_bytes(static_cast<std::int64_t>(dropped.memory_bytes)) + ", from " +
               std::to_string(dropped.partitions) + " partition(s)");
    }
  }
}

}  // namespace kgroups::broker
