// SPDX-License-Identifier: Apache-2.0
//
// RetentionTimer: applies retention by time (each topic's retention.ms) to every partition of
// the Cluster once per interval (--log-retention-check-interval-ms), on the broker's
// io_context, and logs what it dropped. Retention by size needs no timer: Cluster::append
// applies it.
// Not thread-safe: runs on the broker's network thread.
#pragma once

#include <asio/any_io_executor.hpp>
#include <asio/awaitable.hpp>
#include <chrono>

#include "broker/storage/cluster.h"

namespace kgroups::broker {

class RetentionTimer {
 public:
  // `cluster` must outlive the timer's coroutine (the io_context).
  RetentionTimer(Cluster& cluster, std::chrono::milliseconds interval)
      : cluster_(cluster), interval_(interval) {}

  // Starts the periodic pass on `executor`; it runs until the io_context stops.
  void start(const asio::any_io_executor& executor);

 private:
  asio::awaitable<void> run();

  Cluster& cluster_;
  std::chrono::milliseconds interval_;
};

}  // namespace kgroups::broker
