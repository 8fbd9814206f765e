// SPDX-License-Identifier: Apache-2.0
//
// Clock: where the group coordinator reads the time. SteadyClock is the real one;
// ManualClock only moves when a test calls advance(), so tests drive session and
// rebalance timeouts step by step without sleeping.
// SteadyClock is thread-safe. ManualClock is not: use it from the thread that uses
// the coordinator.
#pragma once

#include <chrono>

namespace kgroups::broker {

class Clock {
 public:
  using TimePoint = std::chrono::steady_clock::time_point;

  virtual ~Clock() = default;

  // Returns the current time. Never goes backwards.
  [[nodiscard]] virtual TimePoint now() const = 0;
};

// The monotonic system clock.
class SteadyClock final : public Clock {
 public:
  [[nodiscard]] TimePoint now() const override { return std::chrono::steady_clock::now(); }
};

// A clock that starts at an arbitrary fixed point and moves only by advance().
class ManualClock final : public Clock {
 public:
  [[nodiscard]] TimePoint now() const override { return now_; }

  // Moves the clock forward by `duration` (which must not be negative).
  void advance(std::chrono::milliseconds duration) { now_ += duration; }

 private:
  TimePoint now_{std::chrono::hours(1)};  // arbitrary, non-zero so deadlines never hit epoch
};

}  // namespace kgroups::broker
