// SPDX-License-Identifier: Apache-2.0
#include "broker/storage/segment_bytes.h"

#include <utility>

#include "memory/chunk_supply.h"

namespace kgroups::broker {
namespace {

// Segment bytes from the process-wide chunk supply: pre-faulted, so appending to a new
// segment takes no page fault, and recycled warm when the segment goes (memory/chunk_supply.h).
class ChunkSegmentBytes final : public SegmentBytes {
 public:
  explicit ChunkSegmentBytes(memory::Chunk chunk)
      : SegmentBytes(chunk.data(), chunk.size()), chunk_(std::move(chunk)) {}

 private:
  memory::Chunk chunk_;
};

}  // namespace

std::shared_ptr<SegmentBytes> SegmentBytes::allocate(std::size_t min_capacity) {
  return std::make_shared<ChunkSegmentBytes>(memory::ChunkSupply::shared().take(min_capacity));
}

void SegmentBytes::release_from_log(std::shared_ptr<SegmentBytes>& segment,
                                    const std::shared_ptr<ReleasedSegmentMemory>& released) {
  if (segment == nullptr) return;
  // The network thread owns every reference, so the count is exact: more than the log's
  // one means queued responses pin it.
  if (released != nullptr && segment.use_count() > 1 && segment->released_ == nullptr &&
      segment->in_memory_) {
    segment->released_ = released;
    released->add(segment->capacity_);
  }
  segment.reset();
}

}  // namespace kgroups::broker
