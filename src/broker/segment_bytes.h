// SPDX-License-Identifier: Apache-2.0
//
// SegmentBytes: the memory of one BatchLog segment (or of a segment the log cleaner wrote).
// It is shared: the log holds it while the segment is retained, and a queued Fetch response
// that sends batches straight from it holds it too (SegmentPins) until the socket has taken
// them, so retention, DeleteRecords, eviction, topic deletion and the cleaner can drop or
// replace a segment while a write from it is pending.
// Not thread-safe: the broker's network thread owns every BatchLog and every response.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

namespace kgroups::broker {

class SegmentBytes {
 public:
  // A segment of `capacity` bytes, uninitialised. Throws std::bad_alloc.
  static std::shared_ptr<SegmentBytes> allocate(std::size_t capacity);

  explicit SegmentBytes(std::size_t capacity);
  SegmentBytes(const SegmentBytes&) = delete;
  SegmentBytes& operator=(const SegmentBytes&) = delete;

  [[nodiscard]] std::uint8_t* data() const { return bytes_.get(); }
  // Bytes allocated: what the segment's memory counts.
  [[nodiscard]] std::size_t capacity() const { return capacity_; }

 private:
  std::unique_ptr<std::uint8_t[]> bytes_;
  std::size_t capacity_ = 0;
};

}  // namespace kgroups::broker
