// SPDX-License-Identifier: Apache-2.0
#include "broker/batch_log.h"

#include <algorithm>
#include <cstring>

#include "protocol/record_batch.h"

namespace kgroups::broker {

std::int64_t BatchLog::append(std::span<const std::uint8_t> batch, std::int32_t last_offset_delta,
                              std::int64_t max_timestamp) {
  std::uint8_t* stored = store(batch);
  const std::int64_t base_offset = high_watermark_;
  protocol::write_base_offset(std::span<std::uint8_t>(stored, batch.size()), base_offset);
  index_.push_back(StoredBatch{.base_offset = base_offset,
                               .last_offset = base_offset + last_offset_delta,
                               .max_timestamp = max_timestamp,
                               .data = stored,
                               .size_bytes = batch.size()});
  high_watermark_ = base_offset + last_offset_delta + 1;
  size_bytes_ += batch.size();
  return base_offset;
}

std::span<const StoredBatch> BatchLog::batches_from(std::int64_t offset) const {
  if (offset < 0 || offset >= high_watermark_) return {};
  // The first batch whose last offset is >= offset holds it: batches are contiguous.
  const auto it =
      std::partition_point(index_.begin(), index_.end(),
                           [offset](const StoredBatch& b) { return b.last_offset < offset; });
  return {it, index_.end()};
}

const StoredBatch* BatchLog::first_batch_at_or_after(std::int64_t timestamp_ms) const {
  for (const StoredBatch& batch : index_) {
    if (batch.max_timestamp >= timestamp_ms) return &batch;
  }
  return nullptr;
}

std::uint8_t* BatchLog::store(std::span<const std::uint8_t> bytes) {
  if (segments_.empty() || segment_capacity_ - segment_used_ < bytes.size()) {
    const std::size_t capacity = std::max(kSegmentBytes, bytes.size());
    segments_.push_back(std::make_unique_for_overwrite<std::uint8_t[]>(capacity));
    segment_capacity_ = capacity;
    segment_used_ = 0;
  }
  std::uint8_t* destination = segments_.back().get() + segment_used_;
  if (!bytes.empty()) std::memcpy(destination, bytes.data(), bytes.size());
  segment_used_ += bytes.size();
  return destination;
}

}  // namespace kgroups::broker
