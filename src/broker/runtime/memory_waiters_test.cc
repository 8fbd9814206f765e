// SPDX-License-Identifier: Apache-2.0
#include "broker/runtime/memory_waiters.h"

#include <gtest/gtest.h>

#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/io_context.hpp>
#include <asio/post.hpp>
#include <chrono>

namespace kgroups::broker {
namespace {

TEST(MemoryWaiters, WakeAllResumesEveryWaiter) {
  asio::io_context io;
  MemoryWaiters waiters;
  int resumed = 0;
  for (int i = 0; i < 3; ++i) {
    asio::co_spawn(
        io,
        [&]() -> asio::awaitable<void> {
          co_await waiters.wait_until(asio::steady_timer::time_point::max());
          ++resumed;
        },
        asio::detached);
  }
  io.poll();
  EXPECT_EQ(waiters.waiting(), 3u);
  EXPECT_EQ(resumed, 0);
  waiters.wake_all();
  io.poll();
  EXPECT_EQ(resumed, 3);
  EXPECT_EQ(waiters.waiting(), 0u);
}

TEST(MemoryWaiters, TheOwnerOfTheTimerCanWakeItsWaiterAlone) {
  asio::io_context io;
  MemoryWaiters waiters;
  asio::steady_timer timer(io, asio::steady_timer::time_point::max());
  bool resumed = false;
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        co_await waiters.wait(timer);
        resumed = true;
      },
      asio::detached);
  io.poll();
  EXPECT_EQ(waiters.waiting(), 1u);
  timer.cancel();
  io.poll();
  EXPECT_TRUE(resumed);
  EXPECT_EQ(waiters.waiting(), 0u);
}

TEST(MemoryWaiters, AWaiterResumesAtItsDeadline) {
  asio::io_context io;
  MemoryWaiters waiters;
  bool resumed = false;
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        co_await waiters.wait_until(asio::steady_timer::clock_type::now() +
                                    std::chrono::milliseconds(5));
        resumed = true;
      },
      asio::detached);
  io.run();
  EXPECT_TRUE(resumed);
  EXPECT_EQ(waiters.waiting(), 0u);
}

TEST(MemoryWaiters, ADestroyedWaiterUnregistersItself) {
  MemoryWaiters waiters;
  {
    asio::io_context io;
    asio::co_spawn(
        io,
        [&]() -> asio::awaitable<void> {
          co_await waiters.wait_until(asio::steady_timer::time_point::max());
        },
        asio::detached);
    io.poll();
    EXPECT_EQ(waiters.waiting(), 1u);
  }
  EXPECT_EQ(waiters.waiting(), 0u);
}

}  // namespace
}  // namespace kgroups::broker
