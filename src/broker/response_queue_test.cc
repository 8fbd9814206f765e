// SPDX-License-Identifier: Apache-2.0
#include "broker/response_queue.h"

#include <gtest/gtest.h>

#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/io_context.hpp>
#include <cstring>
#include <vector>

namespace kgroups::broker {
namespace {

std::vector<std::uint8_t> response_of(std::size_t size, std::uint8_t fill) {
  std::vector<std::uint8_t> response(size, fill);
  response.shrink_to_fit();
  return response;
}

std::vector<std::uint8_t> gathered(const ResponseQueue& queue) {
  std::vector<asio::const_buffer> buffers;
  queue.gather(buffers, 64);
  std::vector<std::uint8_t> bytes;
  for (const asio::const_buffer& buffer : buffers) {
    const auto* data = static_cast<const std::uint8_t*>(buffer.data());
    bytes.insert(bytes.end(), data, data + buffer.size());
  }
  return bytes;
}

TEST(ResponseQueue, CountsQueuedResponsesUntilTheSocketTakesThemWhole) {
  constexpr std::size_t kBig = ResponseQueue::kMaxSpareBufferBytes + 1;  // never kept as a spare
  ByteBudget budget(std::int64_t{64} << 20);
  MemoryWaiters waiters;
  ResponseQueue queue(budget, waiters);
  queue.push(response_of(kBig, 1));
  queue.push(response_of(kBig + 2, 2));
  EXPECT_EQ(queue.unsent_bytes(), 2 * kBig + 2);
  EXPECT_EQ(budget.used(), static_cast<std::int64_t>(2 * kBig + 2));
  EXPECT_EQ(queue.consume(kBig - 1), 0u);  // the first is not written whole yet
  EXPECT_EQ(budget.used(), static_cast<std::int64_t>(2 * kBig + 2));
  EXPECT_EQ(gathered(queue).size(), kBig + 3);
  EXPECT_EQ(gathered(queue).front(), 1);
  EXPECT_EQ(queue.consume(1), kBig);
  EXPECT_EQ(budget.used(), static_cast<std::int64_t>(kBig + 2));
  EXPECT_EQ(queue.consume(kBig + 2), kBig + 2);
  EXPECT_TRUE(queue.empty());
  EXPECT_EQ(budget.used(), 0);
}

TEST(ResponseQueue, TakesResponsesBeyondTheLimitAndGivesThemBackWhenDropped) {
  ByteBudget budget(1000);
  MemoryWaiters waiters;
  {
    ResponseQueue queue(budget, waiters);
    queue.push(response_of(5000, 0));
    EXPECT_EQ(budget.used(), 5000);
    EXPECT_EQ(budget.available(), 0);
    queue.release();
    EXPECT_EQ(budget.used(), 0);
    queue.push(response_of(700, 0));
  }
  EXPECT_EQ(budget.used(), 0);  // the destructor gives back what is left
}

TEST(ResponseQueue, KeepsOnlyAFewSparesNoLargerThanTheCapAndCountsThem) {
  ByteBudget budget(std::int64_t{64} << 20);
  MemoryWaiters waiters;
  ResponseQueue queue(budget, waiters);
  for (int i = 0; i < 6; ++i) queue.push(response_of(1000, 0));
  queue.push(response_of(ResponseQueue::kMaxSpareBufferBytes + 1, 0));
  queue.consume(std::size_t{6} * 1000 + ResponseQueue::kMaxSpareBufferBytes + 1);
  EXPECT_EQ(queue.spare_bytes(), ResponseQueue::kMaxSpareBuffers * 1000);
  EXPECT_EQ(budget.used(), static_cast<std::int64_t>(ResponseQueue::kMaxSpareBuffers * 1000));
  std::vector<std::uint8_t> reused = queue.take_buffer();
  EXPECT_TRUE(reused.empty());
  EXPECT_EQ(reused.capacity(), 1000u);
  EXPECT_EQ(budget.used(), static_cast<std::int64_t>((ResponseQueue::kMaxSpareBuffers - 1) * 1000));
}

TEST(ResponseQueue, KeepsNoSpareWhenTheBudgetIsHalfUsed) {
  ByteBudget budget(10000);
  MemoryWaiters waiters;
  ResponseQueue queue(budget, waiters);
  budget.take(5000);  // other connections' responses
  queue.push(response_of(1000, 0));
  queue.consume(1000);
  EXPECT_EQ(queue.spare_bytes(), 0u);
  EXPECT_EQ(budget.used(), 5000);
}

TEST(ResponseQueue, WakesWaitersWhenItGivesBackRoom) {
  asio::io_context io;
  ByteBudget budget(1000);
  MemoryWaiters waiters;
  ResponseQueue queue(budget, waiters);
  queue.push(response_of(2000, 0));
  bool woken = false;
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        co_await waiters.wait_until(asio::steady_timer::time_point::max());
        woken = true;
      },
      asio::detached);
  io.poll();
  ASSERT_EQ(waiters.waiting(), 1u);
  queue.consume(2000);
  io.poll();
  EXPECT_TRUE(woken);
}

}  // namespace
}  // namespace kgroups::broker
