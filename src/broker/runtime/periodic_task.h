// SPDX-License-Identifier: Apache-2.0
//
// PeriodicTask: runs a pass on the broker's io_context every `interval` (the first one
// interval after start()), until the io_context stops. A pass that reports work left undone
// is followed at once by the next (after the handlers already waiting have run), so a
// budgeted pass never holds the network thread longer than its budget and still finishes
// soon. The broker's retention, log cleaner and transaction timeouts run on it.
// Not thread-safe: runs on the broker's network thread.
#pragma once

#include <asio/any_io_executor.hpp>
#include <asio/awaitable.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <utility>

namespace kgroups::broker {

// What one pass of a PeriodicTask reports.
enum class PassOutcome {
  kDone,      // the next pass comes after the interval
  kMoreWork,  // the next pass comes at once
};

class PeriodicTask {
 public:
  PeriodicTask(std::chrono::milliseconds interval, std::function<PassOutcome()> pass)
      : interval_(interval), pass_(std::move(pass)) {}

  // Starts the passes on `executor`; they run until its io_context stops. The task (and
  // whatever its pass uses) must outlive the io_context's coroutines.
  void start(const asio::any_io_executor& executor);

 private:
  asio::awaitable<void> run();

  std::chrono::milliseconds interval_;
  std::function<PassOutcome()> pass_;
};

// Milliseconds since the epoch by the system clock: the time retention and compaction
// compare record timestamps with.
std::int64_t wall_clock_ms();

}  // namespace kgroups::broker
