// SPDX-License-Identifier: Apache-2.0
#include "broker/await_callback.h"

#include <gtest/gtest.h>

#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/io_context.hpp>
#include <functional>
#include <string>
#include <vector>

namespace kgroups::broker {
namespace {

TEST(AwaitCallback, ResumesWithTheValueOfACallbackCalledInline) {
  asio::io_context io;
  std::vector<std::string> events;
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        const int value = co_await await_callback<int>([&](std::function<void(int)> done) {
          done(42);
          events.push_back("start returned");
        });
        events.push_back("resumed with " + std::to_string(value));
      },
      asio::detached);
  io.run();
  EXPECT_EQ(events, (std::vector<std::string>{"start returned", "resumed with 42"}));
}

TEST(AwaitCallback, StaysSuspendedUntilALaterCallback) {
  asio::io_context io;
  std::function<void(std::string)> parked;
  std::string result;
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        result = co_await await_callback<std::string>(
            [&](std::function<void(std::string)> done) { parked = std::move(done); });
      },
      asio::detached);
  io.poll();  // runs the coroutine until it parks; the parked call counts as pending work
  ASSERT_TRUE(parked);
  EXPECT_EQ(result, "");
  parked("assignment");
  io.run();  // returns once the coroutine has finished
  EXPECT_EQ(result, "assignment");
}

}  // namespace
}  // namespace kgroups::broker
