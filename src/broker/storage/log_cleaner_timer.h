// SPDX-License-Identifier: Apache-2.0
//
// LogCleanerTimer: runs the LogCleaner on the broker's io_context: a pass every
// --log-cleaner-interval-ms, and while a cleaning is under way the next pass at once (after
// the handlers already waiting have run), so one large log never holds the network thread
// longer than a pass (--log-cleaner-bytes-per-pass). Logs each finished cleaning.
// Not thread-safe: runs on the broker's network thread.
#pragma once

#include <asio/any_io_executor.hpp>
#include <asio/awaitable.hpp>
#include <chrono>

#include "broker/storage/cluster.h"
#include "broker/storage/log_cleaner.h"

namespace kgroups::broker {

class LogCleanerTimer {
 public:
  // `cluster` must outlive the timer's coroutine (the io_context).
  LogCleanerTimer(Cluster& cluster, LogCleanerOptions options, std::chrono::milliseconds interval)
      : cluster_(cluster), cleaner_(options), interval_(interval) {}

  // Starts the periodic passes on `executor`; they run until the io_context stops.
  void start(const asio::any_io_executor& executor);

 private:
  asio::awaitable<void> run();

  Cluster& cluster_;
  LogCleaner cleaner_;
  std::chrono::milliseconds interval_;
};

}  // namespace kgroups::broker
