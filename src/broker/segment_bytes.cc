// SPDX-License-Identifier: Apache-2.0
#include "broker/segment_bytes.h"

namespace kgroups::broker {
namespace {

// Segment bytes from the heap.
class HeapSegmentBytes final : public SegmentBytes {
 public:
  HeapSegmentBytes(std::unique_ptr<std::uint8_t[]> bytes, std::size_t capacity)
      : SegmentBytes(bytes.get(), capacity), bytes_(std::move(bytes)) {}

 private:
  std::unique_ptr<std::uint8_t[]> bytes_;
};

}  // namespace

std::shared_ptr<SegmentBytes> SegmentBytes::allocate(std::size_t min_capacity) {
  return std::make_shared<HeapSegmentBytes>(
      std::make_unique_for_overwrite<std::uint8_t[]>(min_capacity), min_capacity);
}

}  // namespace kgroups::broker
