// SPDX-License-Identifier: Apache-2.0
//
// SegmentBytes: the memory of one BatchLog segment (or of a segment the log cleaner wrote).
// It is shared: the log holds it while the segment is retained, and a queued Fetch response
// that sends batches straight from it holds it too (SegmentPins) until the socket has taken
// them, so retention, DeleteRecords, eviction, topic deletion and the cleaner can drop or
// replace a segment while a write from it is pending. A log lets a segment go through
// release_from_log(), which keeps a still-pinned segment's whole capacity counted in a
// ReleasedSegmentMemory until it is freed. Where the bytes come from is segment_bytes.cc's
// business; capacity() is what they count.
// Not thread-safe: the broker's network thread owns every BatchLog and every response.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "broker/storage/released_segment_memory.h"

namespace kgroups::broker {

class SegmentBytes {
 public:
  // A segment of at least `min_capacity` bytes, uninitialised. Throws std::bad_alloc.
  static std::shared_ptr<SegmentBytes> allocate(std::size_t min_capacity);

  SegmentBytes(const SegmentBytes&) = delete;
  SegmentBytes& operator=(const SegmentBytes&) = delete;

  [[nodiscard]] std::uint8_t* data() const { return data_; }
  // Bytes allocated (at least those asked for): what the segment's memory counts.
  [[nodiscard]] std::size_t capacity() const { return capacity_; }

  // The log holding `segment` lets it go (and resets `segment`): when a response still pins
  // it, its capacity counts in `released` (when not null) until the last pin goes.
  static void release_from_log(std::shared_ptr<SegmentBytes>& segment,
                               const std::shared_ptr<ReleasedSegmentMemory>& released);

 protected:
  // The storage (defined in segment_bytes.cc) derives from it and owns the bytes.
  SegmentBytes(std::uint8_t* data, std::size_t capacity) : data_(data), capacity_(capacity) {}
  ~SegmentBytes() {
    if (released_ != nullptr) released_->remove(capacity_);
  }

 private:
  std::uint8_t* data_ = nullptr;
  std::size_t capacity_ = 0;
  std::shared_ptr<ReleasedSegmentMemory> released_;  // set once its log let it go pinned
};

}  // namespace kgroups::broker
