// SPDX-License-Identifier: Apache-2.0
//
// SegmentBytes: the memory of one BatchLog segment (or of a segment the log cleaner wrote).
// It is shared: the log holds it while the segment is retained, and a queued Fetch response
// that sends batches straight from it holds it too (SegmentPins) until the socket has taken
// them, so retention, DeleteRecords, eviction, topic deletion and the cleaner can drop or
// replace a segment while a write from it is pending. A log lets a segment go through
// release_from_log(), which keeps a still-pinned segment's whole capacity counted in a
// ReleasedSegmentMemory until it is freed. Where the bytes come from is segment_bytes.cc's
// business (memory) or FileSegmentBytes' (a segment file mapped from a log directory, which
// counts no memory); capacity() is how many bytes the segment can hold.
// Not thread-safe: the broker's network thread owns every BatchLog and every response.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "broker/storage/released_segment_memory.h"

namespace kgroups::broker {

class SegmentBytes {
 public:
  SegmentBytes(SegmentBytes&&) = delete;
  SegmentBytes& operator=(SegmentBytes&&) = delete;
  // A segment of at least `min_capacity` bytes, uninitialised. Throws std::bad_alloc.
  static std::shared_ptr<SegmentBytes> allocate(std::size_t min_capacity);

  // Derived storages are owned through shared_ptr<SegmentBytes>.
  virtual ~SegmentBytes() {
    if (released_ != nullptr) released_->remove(memory_bytes());
  }
  SegmentBytes(const SegmentBytes&) = delete;
  SegmentBytes& operator=(const SegmentBytes&) = delete;

  [[nodiscard]] std::uint8_t* data() const { return data_; }
  // Bytes the segment can hold (at least those asked for): what an in-memory segment's
  // memory counts.
  [[nodiscard]] std::size_t capacity() const { return capacity_; }
  // Memory the segment holds: its capacity in memory, nothing for a mapped segment file (the
  // page cache holds it, and the kernel may write it back and drop it).
  [[nodiscard]] std::size_t memory_bytes() const { return in_memory_ ? capacity_ : 0; }

  // What a segment file does when its log acts on it; in memory, nothing (file_segment_bytes.h
  // says what each does on disk). ensure_writable() makes the first `bytes` bytes writable
  // (a file reserves its disk space), throwing std::system_error (ENOSPC: the disk is full);
  // close() says the log appends no more after `used` bytes (`pinned`: a queued response
  // still reads it); truncated() says the bytes from `used` on no longer belong to the log;
  // discard() says the log dropped the segment (its files go); sync() flushes what was
  // written to the disk.
  virtual void ensure_writable(std::size_t /*bytes*/) {}
  virtual void close(std::size_t /*used*/, bool /*pinned*/) {}
  virtual void truncated(std::size_t /*used*/) {}
  virtual void discard() {}
  virtual void sync() {}

  // The log holding `segment` lets it go (and resets `segment`): when a response still pins
  // it, its capacity counts in `released` (when not null) until the last pin goes.
  static void release_from_log(std::shared_ptr<SegmentBytes>& segment,
                               const std::shared_ptr<ReleasedSegmentMemory>& released);

 protected:
  // The storage (defined in segment_bytes.cc) derives from it and owns the bytes.
  SegmentBytes(std::uint8_t* data, std::size_t capacity, bool in_memory = true)
      : data_(data), capacity_(capacity), in_memory_(in_memory) {}

 private:
  std::uint8_t* data_ = nullptr;
  std::size_t capacity_ = 0;
  bool in_memory_ = true;
  std::shared_ptr<ReleasedSegmentMemory> released_;  // set once its log let it go pinned
};

}  // namespace kgroups::broker
