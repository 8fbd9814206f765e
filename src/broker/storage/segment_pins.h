// SPDX-License-Identifier: Apache-2.0
//
// SegmentPins: the log segments one queued response sends bytes from (SegmentBytes), held
// until the response is written or dropped, so that the log may drop or replace them
// meanwhile. One reference per segment run, not per batch: pinning the segment pinned last
// again adds nothing.
// Not thread-safe: one response's, on the broker's network thread.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "broker/storage/segment_bytes.h"

namespace kgroups::broker {

class SegmentPins {
 public:
  void pin(std::shared_ptr<const SegmentBytes> segment) {
    if (!pinned_.empty() && pinned_.back() == segment) return;
    pinned_.push_back(std::move(segment));
  }
  // Lets every segment go (the response was written); keeps the list's capacity.
  void clear() { pinned_.clear(); }

  [[nodiscard]] std::size_t size() const { return pinned_.size(); }
  [[nodiscard]] bool empty() const { return pinned_.empty(); }
  // Memory of the list itself (the segments are counted by their logs).
  [[nodiscard]] std::size_t memory_bytes() const {
    return pinned_.capacity() * sizeof(std::shared_ptr<const SegmentBytes>);
  }

 private:
  std::vector<std::shared_ptr<const SegmentBytes>> pinned_;
};

}  // namespace kgroups::broker
