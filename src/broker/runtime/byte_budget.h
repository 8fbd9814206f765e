// SPDX-License-Identifier: Apache-2.0
//
// ByteBudget: a count of bytes in use against a limit, for one share of the memory plan
// (requests being received, responses not yet sent). Users take bytes before they allocate
// and give them back when they free; the budget itself allocates nothing.
// Not thread-safe: used on the broker's network thread.
#pragma once

#include <cstdint>

namespace kgroups::broker {

class ByteBudget {
 public:
  explicit ByteBudget(std::int64_t limit_bytes) : limit_(limit_bytes) {}

  // Takes `bytes` if they fit under the limit; returns whether it did.
  [[nodiscard]] bool try_take(std::int64_t bytes) {
    if (bytes > limit_ - used_) return false;
    used_ += bytes;
    return true;
  }
  // Takes `bytes` even beyond the limit (for memory already allocated, e.g. a response that
  // was built within its own bound); available() then reads 0 until enough is given back.
  void take(std::int64_t bytes) { used_ += bytes; }
  // Gives back `bytes` taken earlier.
  void give_back(std::int64_t bytes) { used_ -= bytes; }

  [[nodiscard]] std::int64_t used() const { return used_; }
  [[nodiscard]] std::int64_t limit() const { return limit_; }
  // Bytes that can still be taken (0 when at or over the limit).
  [[nodiscard]] std::int64_t available() const { return used_ >= limit_ ? 0 : limit_ - used_; }

 private:
  std::int64_t limit_;
  std::int64_t used_ = 0;  // may exceed limit_ after take()
};

}  // namespace kgroups::broker
