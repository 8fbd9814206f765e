// SPDX-License-Identifier: Apache-2.0
#include "broker/net/frame_buffer.h"

#include <algorithm>
#include <cstring>

namespace kgroups::broker {

FrameBuffer::FrameBuffer(ByteBudget& budget)
    : budget_(budget),
      bytes_(std::make_unique_for_overwrite<std::uint8_t[]>(kInitialBytes)),
      capacity_(kInitialBytes) {
  budget_.take(static_cast<std::int64_t>(capacity_));
}

FrameBuffer::~FrameBuffer() { release(); }

std::span<const std::uint8_t> FrameBuffer::buffered() const {
  return {bytes_.get() + begin_, end_ - begin_};
}

std::optional<std::int32_t> FrameBuffer::size_prefix() const {
  if (end_ - begin_ < 4) return std::nullopt;
  const std::uint8_t* prefix = bytes_.get() + begin_;
  return static_cast<std::int32_t>((std::uint32_t{prefix[0]} << 24) |
                                   (std::uint32_t{prefix[1]} << 16) |
                                   (std::uint32_t{prefix[2]} << 8) | std::uint32_t{prefix[3]});
}

std::span<std::uint8_t> FrameBuffer::free_space() {
  return {bytes_.get() + end_, capacity_ - end_};
}

void FrameBuffer::commit(std::size_t bytes) { end_ = std::min(capacity_, end_ + bytes); }

void FrameBuffer::consume(std::size_t bytes) {
  begin_ = std::min(end_, begin_ + bytes);
  if (begin_ == end_) begin_ = end_ = 0;
}

bool FrameBuffer::make_room(std::size_t frame_bytes) {
  if (capacity_ == 0) return false;  // released
  const bool fits_in_place = begin_ + frame_bytes <= capacity_;
  if (begin_ > 0 && (!fits_in_place || capacity_ - end_ < kMinReadBytes)) compact();
  const std::size_t free = capacity_ - end_;
  if (frame_bytes <= capacity_ || free >= kMinReadBytes) return free > 0;
  // The frame is larger than the buffer and little is free: grow toward the frame's size,
  // by kGrowthFactor, or by doubling when the budget cannot spare that much.
  for (const std::size_t factor : {kGrowthFactor, std::size_t{2}}) {
    const std::size_t grown =
        std::min(frame_bytes, std::max(capacity_ * factor, end_ + kInitialBytes));
    if (budget_.try_take(static_cast<std::int64_t>(grown - capacity_))) {
      reallocate(grown);
      return true;
    }
  }
  return free > 0;
}

std::size_t FrameBuffer::shrink() {
  const std::size_t buffered = end_ - begin_;
  if (capacity_ <= kInitialBytes || buffered > kInitialBytes) return 0;
  const std::size_t given_back = capacity_ - kInitialBytes;
  reallocate(kInitialBytes);
  budget_.give_back(static_cast<std::int64_t>(given_back));
  return given_back;
}

std::size_t FrameBuffer::release() {
  const std::size_t given_back = capacity_;
  budget_.give_back(static_cast<std::int64_t>(given_back));
  bytes_.reset();
  capacity_ = begin_ = end_ = 0;
  return given_back;
}

void FrameBuffer::compact() {
  std::memmove(bytes_.get(), bytes_.get() + begin_, end_ - begin_);
  end_ -= begin_;
  begin_ = 0;
}

void FrameBuffer::reallocate(std::size_t capacity) {
  auto bytes = std::make_unique_for_overwrite<std::uint8_t[]>(capacity);
  const std::size_t buffered = end_ - begin_;
  std::memcpy(bytes.get(), bytes_.get() + begin_, buffered);
  bytes_ = std::move(bytes);
  capacity_ = capacity;
  begin_ = 0;
  end_ = buffered;
}

}  // namespace kgroups::broker
