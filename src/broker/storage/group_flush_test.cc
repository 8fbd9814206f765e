// SPDX-License-Identifier: Apache-2.0
//
// Group commit (storage/group_flush.h): the producers of one turn share one flush round, and
// none is woken before the round that covers its records.
#include "broker/storage/group_flush.h"

#include <gtest/gtest.h>

#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/io_context.hpp>
#include <asio/post.hpp>
#include <cstddef>

namespace kgroups::broker {
namespace {

// Spawns a Produce's wait that sets `woken_after_round` to the rounds done when it woke.
void spawn_waiter(asio::io_context& io, GroupFlush& flush, int& woken_after_round) {
  asio::co_spawn(
      io,
      [&flush, &woken_after_round]() -> asio::awaitable<void> {
        co_await flush.wait();
        woken_after_round = static_cast<int>(flush.rounds());
      },
      asio::detached);
}

// A group flush that counts its rounds in `flushes`, each flushing one partition.
GroupFlush counting_flush(int& flushes) {
  return GroupFlush([&flushes] {
    ++flushes;
    return std::size_t{1};
  });
}

TEST(GroupFlush, TheProducersOfOneTurnShareOneRoundAndWakeOnlyAfterIt) {
  asio::io_context io;
  int flushes = 0;
  GroupFlush flush = counting_flush(flushes);
  flush.start(io.get_executor());
  int first = -1;
  int second = -1;
  int third = -1;
  // Three requests of one turn: each marks its partition and waits.
  spawn_waiter(io, flush, first);
  spawn_waiter(io, flush, second);
  spawn_waiter(io, flush, third);
  flush.schedule();
  EXPECT_EQ(flushes, 0);  // nothing is flushed inside a request
  io.run();
  EXPECT_EQ(flushes, 1);
  EXPECT_EQ(first, 1);
  EXPECT_EQ(second, 1);
  EXPECT_EQ(third, 1);
  EXPECT_EQ(flush.waiting(), 0U);
  EXPECT_EQ(flush.waits(), 3U);
  EXPECT_EQ(flush.partitions_flushed(), 1U);
}

TEST(GroupFlush, AWaiterThatComesAfterARoundWaitsForTheNextOne) {
  asio::io_context io;
  int flushes = 0;
  GroupFlush flush = counting_flush(flushes);
  flush.start(io.get_executor());
  int early = -1;
  int late = -1;
  spawn_waiter(io, flush, early);
  io.run_one();  // the early waiter registers and posts a round
  io.run_one();  // the round
  // The late request comes after the round began: its records need a round of their own.
  spawn_waiter(io, flush, late);
  io.run();
  EXPECT_EQ(flushes, 2);
  EXPECT_EQ(early, 1);
  EXPECT_EQ(late, 2);
}

TEST(GroupFlush, ScheduleWithoutAWaiterStillFlushesOnceAndBeforeStartFlushesAtOnce) {
  int flushes = 0;
  GroupFlush flush = counting_flush(flushes);
  flush.schedule();  // not started: at once
  EXPECT_EQ(flushes, 1);
  asio::io_context io;
  flush.start(io.get_executor());
  flush.schedule();
  flush.schedule();
  io.run();
  EXPECT_EQ(flushes, 2);
}

}  // namespace
}  // namespace kgroups::broker
