// SPDX-License-Identifier: Apache-2.0
//
// AuthFailureBackoff: how long the answer to a failed authentication waits before the
// connection closes (Kafka's connection.failed.authentication.delay.ms), growing for an
// address that keeps failing: the base delay while an address fails at most
// max_per_second times in a second, then doubling with each further failure in that second,
// up to kMaxDelay. The failing connection waits (holding only its own slot, which
// --max-connections-per-ip bounds), so guessing passwords gets slow, other clients are not
// delayed and nothing queues. It remembers at most kMaxAddresses addresses; when full it
// forgets those whose second is over, then the oldest.
// Not thread-safe: the broker's network thread owns it.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace kgroups::broker {

class AuthFailureBackoff {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr std::chrono::milliseconds kMaxDelay{5000};
  static constexpr std::size_t kMaxAddresses = 4096;

  AuthFailureBackoff(std::chrono::milliseconds base_delay, std::int32_t max_per_second)
      : base_delay_(base_delay), max_per_second_(max_per_second) {}

  // Counts a failure from `address` at `now`; returns how long its answer waits.
  std::chrono::milliseconds failed(std::string_view address, Clock::time_point now);

  [[nodiscard]] std::size_t addresses() const { return failures_.size(); }

 private:
  struct Window {
    Clock::time_point started;
    std::int32_t failures = 0;
  };
  void make_room(Clock::time_point now);

  std::chrono::milliseconds base_delay_;
  std::int32_t max_per_second_;
  std::map<std::string, Window, std::less<>> failures_;
};

}  // namespace kgroups::broker
