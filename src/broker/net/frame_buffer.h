// SPDX-License-Identifier: Apache-2.0
//
// FrameBuffer: one connection's receive buffer, sized against a ByteBudget (Broker's
// request_memory(), --queued-max-request-bytes). Its capacity is always what it has taken
// from the budget. It starts at kInitialBytes, taken even beyond the limit so that every
// connection can receive small requests; it grows only for a request frame larger than it,
// only as that frame's bytes arrive (kGrowthFactor times at a time, up to the frame's size,
// so a 1 MiB Produce is copied 144 KiB over while it arrives instead of 1 MiB when
// doubling; by doubling when the budget cannot spare that), and only with bytes the budget
// can spare; shrink() returns it to kInitialBytes and gives the bytes back once
// the large frame is handled.
// Not thread-safe: one connection's, on the broker's network thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>

#include "broker/runtime/byte_budget.h"

namespace kgroups::broker {

class FrameBuffer {
 public:
  static constexpr std::size_t kInitialBytes = std::size_t{16} * 1024;
  // The buffer grows once less than this is free for the next read.
  static constexpr std::size_t kMinReadBytes = kInitialBytes / 4;
  // Each growth multiplies the capacity by this (bounded by the frame's size): the buffer
  // holds at most about this many times the frame's bytes received so far.
  static constexpr std::size_t kGrowthFactor = 8;

  // Allocates kInitialBytes and takes them from `budget`, which must outlive the buffer.
  explicit FrameBuffer(ByteBudget& budget);
  // Gives back what it still holds.
  ~FrameBuffer();

  FrameBuffer(const FrameBuffer&) = delete;
  FrameBuffer& operator=(const FrameBuffer&) = delete;

  // Bytes received and not consumed yet.
  [[nodiscard]] std::span<const std::uint8_t> buffered() const;
  // The int32 size prefix at the start of buffered(), once its four bytes are there.
  [[nodiscard]] std::optional<std::int32_t> size_prefix() const;
  // Where the next read may write; empty when the buffer is full.
  [[nodiscard]] std::span<std::uint8_t> free_space();
  // Counts `bytes` written at the start of free_space() as received.
  void commit(std::size_t bytes);
  // Drops the first `bytes` of buffered().
  void consume(std::size_t bytes);

  // Makes room to receive the rest of the frame at the start of buffered(), `frame_bytes`
  // long with its size prefix (0 while the prefix is incomplete): moves it to the front when
  // it would not fit where it is or little space is left, and grows the buffer toward
  // `frame_bytes` when less than kMinReadBytes is free and the frame is larger than the
  // buffer. Returns false when nothing is free and the budget cannot spare the growth (the
  // buffer is unchanged): wait until the budget has room, then call it again.
  [[nodiscard]] bool make_room(std::size_t frame_bytes);

  // Shrinks a grown buffer back to kInitialBytes when what is buffered fits, and gives the
  // difference back to the budget. Returns the bytes given back (0 when unchanged).
  std::size_t shrink();
  // Frees the buffer and gives all its bytes back (the connection is closing). Returns them.
  std::size_t release();

  [[nodiscard]] std::size_t capacity() const { return capacity_; }

 private:
  // Moves buffered() to the front.
  void compact();
  // Reallocates to `capacity` bytes (at least buffered()), keeping buffered() at the front.
  void reallocate(std::size_t capacity);

  ByteBudget& budget_;
  std::unique_ptr<std::uint8_t[]> bytes_;
  std::size_t capacity_ = 0;  // bytes allocated, all taken from budget_
  std::size_t begin_ = 0;     // first unconsumed byte
  std::size_t end_ = 0;       // one past the last received byte
};

}  // namespace kgroups::broker
