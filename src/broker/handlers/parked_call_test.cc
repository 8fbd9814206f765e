// SPDX-License-Identifier: Apache-2.0
#include "broker/handlers/parked_call.h"

#include <gtest/gtest.h>

#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/io_context.hpp>
#include <asio/post.hpp>
#include <functional>
#include <memory>
#include <optional>

namespace kgroups::broker::handlers {
namespace {

TEST(ParkedCall, CallbackRunInlineResumesWithItsValue) {
  asio::io_context io;
  std::optional<int> result;
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        result =
            co_await await_parked_call<int>([](const std::function<void(int)>& done) { done(7); });
      },
      asio::detached);
  io.run();
  EXPECT_EQ(result, 7);
}

TEST(ParkedCall, CallbackRunLaterResumesTheWaitingCoroutine) {
  asio::io_context io;
  std::function<void(int)> parked;
  std::optional<int> result;
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        result = co_await await_parked_call<int>(
            [&](std::function<void(int)> done) { parked = std::move(done); });
      },
      asio::detached);
  io.poll();  // the coroutine parks
  ASSERT_TRUE(parked);
  EXPECT_FALSE(result.has_value());
  asio::post(io, [&] { parked(42); });
  io.run();
  EXPECT_EQ(result, 42);
}

TEST(ParkedCall, CallbackAfterTheIoContextIsGoneDoesNothing) {
  std::function<void(int)> parked;
  auto result = std::make_shared<std::optional<int>>();
  {
    asio::io_context io;
    asio::co_spawn(
        io,
        [&parked, result]() -> asio::awaitable<void> {
          *result = co_await await_parked_call<int>(
              [&](std::function<void(int)> done) { parked = std::move(done); });
        },
        asio::detached);
    io.poll();
    ASSERT_TRUE(parked);
  }           // destroys the parked coroutine with the io_context (as at broker shutdown)
  parked(1);  // the coordinator answering later: must not touch the destroyed frame
  EXPECT_FALSE(result->has_value());
}

}  // namespace
}  // namespace kgroups::broker::handlers
