// SPDX-License-Identifier: Apache-2.0
//
// LogThrottle: at most one log line per interval for one kind of recurring event (a refused
// connection, a failed accept), so that a flood of them cannot flood the log. The line that
// is written says how many events were left out since the previous one.
// Not thread-safe: one per event kind, on the broker's network thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>

namespace kgroups::broker {

class LogThrottle {
 public:
  using Clock = std::chrono::steady_clock;

  explicit LogThrottle(Clock::duration interval = std::chrono::seconds(1)) : interval_(interval) {}

  // Counts an event at `now`. Returns the number of events left out since the last line when
  // this one should be logged (the first event, or one an interval or more after the last
  // line), or nullopt when it should be left out.
  std::optional<std::uint64_t> admit(Clock::time_point now) {
    if (logged_once_ && now - last_line_ < interval_) {
      ++left_out_;
      return std::nullopt;
    }
    logged_once_ = true;
    last_line_ = now;
    const std::uint64_t left_out = left_out_;
    left_out_ = 0;
    return left_out;
  }

 private:
  Clock::duration interval_;
  Clock::time_point last_line_{};  // when the last line was written
  bool logged_once_ = false;
  std::uint64_t left_out_ = 0;  // events since last_line_ that were not logged
};

}  // namespace kgroups::broker
