// SPDX-License-Identifier: Apache-2.0
#include "broker/net/frame_buffer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <vector>

namespace kgroups::broker {
namespace {

constexpr std::size_t kInitial = FrameBuffer::kInitialBytes;

// Receives `bytes` into the buffer as a socket read would, as far as there is room.
std::size_t receive(FrameBuffer& buffer, const std::vector<std::uint8_t>& bytes) {
  const std::span<std::uint8_t> space = buffer.free_space();
  const std::size_t count = std::min(space.size(), bytes.size());
  std::memcpy(space.data(), bytes.data(), count);
  buffer.commit(count);
  return count;
}

std::vector<std::uint8_t> frame_of(std::size_t body_bytes) {
  std::vector<std::uint8_t> frame(4 + body_bytes, 0xAB);
  const auto size = static_cast<std::uint32_t>(body_bytes);
  frame[0] = static_cast<std::uint8_t>(size >> 24);
  frame[1] = static_cast<std::uint8_t>(size >> 16);
  frame[2] = static_cast<std::uint8_t>(size >> 8);
  frame[3] = static_cast<std::uint8_t>(size);
  return frame;
}

TEST(FrameBuffer, TakesItsInitialBytesEvenBeyondTheLimitAndGivesThemBack) {
  ByteBudget budget(1024);
  {
    FrameBuffer buffer(budget);
    EXPECT_EQ(buffer.capacity(), kInitial);
    EXPECT_EQ(budget.used(), static_cast<std::int64_t>(kInitial));
  }
  EXPECT_EQ(budget.used(), 0);
}

TEST(FrameBuffer, ReadsTheSizePrefixOnceItsFourBytesArrived) {
  ByteBudget budget(1 << 20);
  FrameBuffer buffer(budget);
  const std::vector<std::uint8_t> frame = frame_of(300);
  EXPECT_EQ(receive(buffer, {frame.begin(), frame.begin() + 3}), 3u);
  EXPECT_FALSE(buffer.size_prefix());
  receive(buffer, {frame.begin() + 3, frame.end()});
  EXPECT_EQ(buffer.size_prefix(), 300);
  EXPECT_EQ(buffer.buffered().size(), frame.size());
  buffer.consume(frame.size());
  EXPECT_TRUE(buffer.buffered().empty());
  EXPECT_EQ(buffer.free_space().size(), kInitial);
}

TEST(FrameBuffer, GrowsForALargeFrameOnlyAsItsBytesArrive) {
  ByteBudget budget(std::int64_t{64} << 20);
  FrameBuffer buffer(budget);
  const std::vector<std::uint8_t> frame = frame_of(std::size_t{1} << 20);
  std::size_t received = 0;
  ASSERT_TRUE(buffer.make_room(frame.size()));
  EXPECT_EQ(buffer.capacity(), kInitial);  // a size prefix alone allocates nothing
  while (received < frame.size()) {
    ASSERT_TRUE(buffer.make_room(frame.size()));
    // Full (less than kMinReadBytes free) before each growth by kGrowthFactor.
    EXPECT_LE(buffer.capacity(),
              std::max(kInitial, FrameBuffer::kGrowthFactor *
                                     (received + FrameBuffer::kMinReadBytes + kInitial)));
    received +=
        receive(buffer, {frame.begin() + static_cast<std::ptrdiff_t>(received), frame.end()});
  }
  EXPECT_EQ(buffer.capacity(), frame.size());
  EXPECT_EQ(budget.used(), static_cast<std::int64_t>(frame.size()));
  EXPECT_TRUE(std::equal(frame.begin(), frame.end(), buffer.buffered().begin()));
}

TEST(FrameBuffer, RefusesToGrowBeyondTheBudgetAndThenGrowsOnceBytesAreGivenBack) {
  ByteBudget budget(static_cast<std::int64_t>(2 * kInitial));
  FrameBuffer buffer(budget);
  budget.take(static_cast<std::int64_t>(kInitial));  // another connection's buffer
  const std::vector<std::uint8_t> frame = frame_of(4 * kInitial);
  std::size_t received = 0;
  while (buffer.make_room(frame.size())) {
    received +=
        receive(buffer, {frame.begin() + static_cast<std::ptrdiff_t>(received), frame.end()});
  }
  EXPECT_EQ(received, kInitial);  // full, and the budget cannot spare the growth
  EXPECT_EQ(buffer.capacity(), kInitial);
  EXPECT_EQ(budget.used(), static_cast<std::int64_t>(2 * kInitial));
  budget.give_back(static_cast<std::int64_t>(kInitial));
  EXPECT_TRUE(buffer.make_room(frame.size()));
  EXPECT_EQ(buffer.capacity(), 2 * kInitial);  // what the budget has left, not 8 times
  EXPECT_EQ(budget.used(), static_cast<std::int64_t>(2 * kInitial));
}

TEST(FrameBuffer, ShrinksBackOnceTheLargeFrameIsConsumed) {
  ByteBudget budget(std::int64_t{64} << 20);
  FrameBuffer buffer(budget);
  const std::vector<std::uint8_t> frame = frame_of(200000);
  std::vector<std::uint8_t> stream = frame;
  const std::vector<std::uint8_t> next = frame_of(10);
  stream.insert(stream.end(), next.begin(), next.end());
  std::size_t received = 0;
  while (received < stream.size() && buffer.make_room(frame.size())) {
    received +=
        receive(buffer, {stream.begin() + static_cast<std::ptrdiff_t>(received), stream.end()});
  }
  ASSERT_GE(buffer.buffered().size(), frame.size());
  EXPECT_EQ(buffer.shrink(), 0u);  // the large frame is still buffered
  buffer.consume(frame.size());
  const std::size_t grown = buffer.capacity();
  EXPECT_EQ(buffer.shrink(), grown - kInitial);
  EXPECT_EQ(buffer.capacity(), kInitial);
  EXPECT_EQ(budget.used(), static_cast<std::int64_t>(kInitial));
  EXPECT_EQ(buffer.shrink(), 0u);
  ASSERT_TRUE(buffer.make_room(0));
  receive(buffer, {stream.begin() + static_cast<std::ptrdiff_t>(received), stream.end()});
  EXPECT_EQ(buffer.size_prefix(), 10);
}

TEST(FrameBuffer, MovesAPartialFrameToTheFrontWhenTheEndIsNear) {
  ByteBudget budget(1 << 20);
  FrameBuffer buffer(budget);
  // Fill the buffer with small frames, the last one cut short.
  std::vector<std::uint8_t> stream;
  while (stream.size() < kInitial + 100) {
    const std::vector<std::uint8_t> frame = frame_of(1000);
    stream.insert(stream.end(), frame.begin(), frame.end());
  }
  receive(buffer, stream);
  const std::size_t whole = (kInitial / 1004) * 1004;
  buffer.consume(whole);
  const std::size_t partial = kInitial - whole;
  ASSERT_TRUE(buffer.make_room(1004));
  EXPECT_EQ(buffer.capacity(), kInitial);  // no growth: the frame fits once moved
  EXPECT_EQ(buffer.buffered().size(), partial);
  EXPECT_EQ(buffer.free_space().size(), kInitial - partial);
}

TEST(FrameBuffer, ReleaseGivesEverythingBack) {
  ByteBudget budget(1 << 20);
  FrameBuffer buffer(budget);
  EXPECT_EQ(buffer.release(), kInitial);
  EXPECT_EQ(budget.used(), 0);
  EXPECT_FALSE(buffer.make_room(100));
}

}  // namespace
}  // namespace kgroups::broker
