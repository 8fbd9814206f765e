// SPDX-License-Identifier: Apache-2.0
#include "broker/storage/append_notifier.h"

#include <gtest/gtest.h>

#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/io_context.hpp>
#include <chrono>
#include <vector>

namespace kgroups::broker {
namespace {

using std::chrono::hours;

// Spawns a waiter on `partitions` that sets `woken` when its wait ends.
void spawn_waiter(asio::io_context& io, AppendNotifier& notifier,
                  std::vector<const BatchLog*> partitions, bool& woken) {
  asio::co_spawn(
      io,
      [&notifier, partitions = std::move(partitions), &woken]() -> asio::awaitable<void> {
        co_await notifier.wait_until(asio::steady_timer::clock_type::now() + hours(1), partitions);
        woken = true;
      },
      asio::detached);
}

TEST(AppendNotifier, AnAppendWakesOnlyTheFetchesWaitingOnItsPartition) {
  asio::io_context io;
  AppendNotifier notifier;
  BatchLog orders;
  BatchLog payments;
  BatchLog audit;
  bool orders_waiter = false;
  bool payments_waiter = false;
  bool both_waiter = false;
  spawn_waiter(io, notifier, {&orders}, orders_waiter);
  spawn_waiter(io, notifier, {&payments}, payments_waiter);
  spawn_waiter(io, notifier, {&payments, &orders}, both_waiter);
  io.poll();
  EXPECT_EQ(notifier.waiting(), 3u);

  notifier.notify(audit);  // nobody waits on it
  io.poll();
  EXPECT_EQ(notifier.waiting(), 3u);

  notifier.notify(orders);
  io.poll();
  EXPECT_TRUE(orders_waiter);
  EXPECT_TRUE(both_waiter);
  EXPECT_FALSE(payments_waiter);
  EXPECT_EQ(notifier.waiting(), 1u);

  notifier.notify(payments);
  io.poll();
  EXPECT_TRUE(payments_waiter);
  EXPECT_EQ(notifier.waiting(), 0u);
}

TEST(AppendNotifier, AWaiterDestroyedWithTheIoContextUnregistersItself) {
  AppendNotifier notifier;
  BatchLog log;
  bool woken = false;
  {
    asio::io_context io;
    spawn_waiter(io, notifier, {&log}, woken);
    io.poll();
    EXPECT_EQ(notifier.waiting(), 1u);
  }  // destroys the suspended waiter
  EXPECT_EQ(notifier.waiting(), 0u);
  notifier.notify(log);  // must not touch the destroyed timer
  EXPECT_FALSE(woken);
}

}  // namespace
}  // namespace kgroups::broker
