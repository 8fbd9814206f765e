// SPDX-License-Identifier: Apache-2.0
#include "broker/net/response_queue.h"

#include <gtest/gtest.h>

#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/io_context.hpp>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
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
  ResponseBuffer reused = queue.take_buffer();
  EXPECT_TRUE(reused.bytes.empty());
  EXPECT_EQ(reused.bytes.capacity(), 1000u);
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

// A response of bytes "HH" + segment bytes [0, 3) + "M" + segment bytes [5, 8) + "T".
ResponseBuffer spliced_response(const std::shared_ptr<SegmentBytes>& segment) {
  ResponseBuffer response;
  response.bytes = {'H', 'H', 'M', 'T'};
  response.bytes.shrink_to_fit();
  response.spliced = {{.position = 2, .bytes = protocol::ByteView(segment->data(), 3)},
                      {.position = 3, .bytes = protocol::ByteView(segment->data() + 5, 3)}};
  response.spliced_bytes = 6;
  response.pins.pin(segment);
  return response;
}

std::shared_ptr<SegmentBytes> segment_of(std::string_view text) {
  auto segment = SegmentBytes::allocate(text.size());
  std::memcpy(segment->data(), text.data(), text.size());
  return segment;
}

TEST(ResponseQueue, GathersSplicedRangesInFrameOrderAcrossPartialWrites) {
  ByteBudget budget(std::int64_t{64} << 20);
  MemoryWaiters waiters;
  ResponseQueue queue(budget, waiters);
  const auto segment = segment_of("abcdefgh");
  queue.push(spliced_response(segment));
  queue.push(response_of(2, 'z'));
  const std::string expected = "HHabcMfghTzz";
  const auto text = [](const std::vector<std::uint8_t>& bytes) {
    return std::string(bytes.begin(), bytes.end());
  };
  EXPECT_EQ(text(gathered(queue)), expected);
  for (std::size_t written = 1; written < 10; ++written) {  // one byte at a time
    EXPECT_EQ(queue.consume(1), 0u);
    EXPECT_EQ(text(gathered(queue)), expected.substr(written));
  }
  EXPECT_EQ(segment.use_count(), 2);  // pinned by the unsent response
  EXPECT_GT(queue.consume(1), 0u);    // the first response is written whole
  EXPECT_EQ(segment.use_count(), 1);  // and lets its segment go
  EXPECT_EQ(text(gathered(queue)), "zz");
}

TEST(ResponseQueue, GathersAtMostMaxBuffersPieces) {
  ByteBudget budget(std::int64_t{64} << 20);
  MemoryWaiters waiters;
  ResponseQueue queue(budget, waiters);
  const auto segment = segment_of("abcdefgh");
  queue.push(spliced_response(segment));  // five pieces
  std::vector<asio::const_buffer> buffers;
  queue.gather(buffers, 3);
  ASSERT_EQ(buffers.size(), 3u);
  EXPECT_EQ(buffers[2].size(), 1u);  // "M"
  queue.consume(2);                  // "HH": the spliced range is first now
  buffers.clear();
  queue.gather(buffers, 64);
  ASSERT_EQ(buffers.size(), 4u);
  EXPECT_EQ(buffers[0].data(), segment->data());
}

TEST(ResponseQueue, CountsSplicedBytesAndDropsPinsOnRelease) {
  ByteBudget budget(std::int64_t{64} << 20);
  MemoryWaiters waiters;
  ResponseQueue queue(budget, waiters);
  const auto segment = segment_of("abcdefgh");
  ResponseBuffer response = spliced_response(segment);
  const std::size_t memory = response.memory_bytes();
  EXPECT_GE(memory, response.bytes.capacity() + 6);
  queue.push(std::move(response));
  EXPECT_EQ(queue.unsent_bytes(), memory);
  EXPECT_EQ(budget.used(), static_cast<std::int64_t>(memory));
  queue.release();
  EXPECT_EQ(segment.use_count(), 1);
  EXPECT_EQ(budget.used(), 0);
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
