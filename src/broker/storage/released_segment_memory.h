// SPDX-License-Identifier: Apache-2.0
//
// ReleasedSegmentMemory: the segments that logs have let go (retention, eviction,
// DeleteRecords, the cleaner's rewrite, topic deletion) while a queued Fetch response still
// pins them (SegmentPins). Their bytes stay allocated until the last pin goes, whole, however
// few of them the response sends, so the Cluster keeps counting them in the records' share:
// a client that never reads its answers while the topic is deleted and refilled makes the
// broker evict other segments, never exceed the share. A segment counts here from the moment
// its log lets it go (SegmentBytes::release_from_log) until it is freed.
// Not thread-safe: the broker's network thread owns every log and every response.
#pragma once

#include <cstddef>
#include <cstdint>

namespace kgroups::broker {

class ReleasedSegmentMemory {
 public:
  // Capacity of the released segments still pinned, and how many there are.
  [[nodiscard]] std::int64_t bytes() const { return bytes_; }
  [[nodiscard]] std::size_t segments() const { return segments_; }

  void add(std::size_t capacity) {
    bytes_ += static_cast<std::int64_t>(capacity);
    ++segments_;
  }
  void remove(std::size_t capacity) {
    bytes_ -= static_cast<std::int64_t>(capacity);
    --segments_;
  }

 private:
  std::int64_t bytes_ = 0;
  std::size_t segments_ = 0;
};

}  // namespace kgroups::broker
