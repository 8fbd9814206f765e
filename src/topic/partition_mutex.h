// SPDX-License-Identifier: Apache-2.0
//
// PartitionMutex: the lock around one partition's log. Uncontended lock and
// unlock are one atomic instruction each, inlined into Topic::append; a
// contended lock spins briefly (critical sections are tens of nanoseconds),
// then sleeps on the futex behind std::atomic::wait. The three-state protocol
// (unlocked, locked, locked with sleepers) makes unlock call notify only when
// someone may be asleep. Meets the Lockable requirements (std::lock_guard).
#pragma once

#include <atomic>
#include <cstdint>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace kgroups {

class PartitionMutex {
 public:
  void lock() noexcept {
    std::uint32_t expected = kUnlocked;
    if (!state_.compare_exchange_strong(expected, kLocked, std::memory_order_acquire,
                                        std::memory_order_relaxed)) {
      lock_contended();
    }
  }

  void unlock() noexcept {
    if (state_.exchange(kUnlocked, std::memory_order_release) == kLockedWithSleepers) {
      state_.notify_one();
    }
  }

 private:
  static constexpr std::uint32_t kUnlocked = 0;
  static constexpr std::uint32_t kLocked = 1;
  static constexpr std::uint32_t kLockedWithSleepers = 2;
  static constexpr int kSpins = 100;

  void lock_contended() noexcept {
    for (int spin = 0; spin < kSpins; ++spin) {
      std::uint32_t expected = kUnlocked;
      if (state_.load(std::memory_order_relaxed) == kUnlocked &&
          state_.compare_exchange_weak(expected, kLocked, std::memory_order_acquire,
                                       std::memory_order_relaxed)) {
        return;
      }
      pause();
    }
    // From here on, announce a sleeper: whoever unlocks will notify.
    while (state_.exchange(kLockedWithSleepers, std::memory_order_acquire) != kUnlocked) {
      state_.wait(kLockedWithSleepers, std::memory_order_relaxed);
    }
  }

  // Tells the core this is a spin-wait loop (saves power, yields to a sibling thread).
  static void pause() noexcept {
#if defined(__x86_64__) || defined(__i386__)
    _mm_pause();
#endif
  }

  std::atomic<std::uint32_t> state_{kUnlocked};
};

}  // namespace kgroups
