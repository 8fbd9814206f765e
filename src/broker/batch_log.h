// SPDX-License-Identifier: Apache-2.0
//
// BatchLog: the record batches of one partition, stored exactly as producers sent them
// (magic 2, compressed or not) except for the base offset, which the log writes in. The CRC
// does not cover the base offset, so stored batches stay valid without recomputing it.
//
// Invariants: batches are contiguous in offset order (each base offset is the previous
// batch's last offset + 1), the first starts at offset 0, and the high watermark is the last
// batch's last offset + 1. Stored bytes never move once written (they live in fixed-size
// segments), so views returned by batches_from() stay valid while the log is alive.
// Not thread-safe: the broker's single network thread owns every BatchLog.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace kgroups::broker {

// One stored batch: where its bytes are and which offsets it holds.
struct StoredBatch {
  std::int64_t base_offset = 0;        // offset of the batch's first record
  std::int64_t last_offset = 0;        // offset of the batch's last record (inclusive)
  std::int64_t max_timestamp = 0;      // the batch header's maxTimestamp, in ms
  const std::uint8_t* data = nullptr;  // the whole batch, base offset already written
  std::size_t size_bytes = 0;          // bytes of the whole batch, from the baseOffset field on

  [[nodiscard]] std::span<const std::uint8_t> bytes() const { return {data, size_bytes}; }
};

class BatchLog {
 public:
  BatchLog() = default;
  BatchLog(BatchLog&&) noexcept = default;
  BatchLog& operator=(BatchLog&&) noexcept = default;
  BatchLog(const BatchLog&) = delete;
  BatchLog& operator=(const BatchLog&) = delete;

  // Copies `batch`, a magic-2 record batch that the caller has already validated (size fields,
  // magic, CRC), writes the high watermark into its base offset, and advances the high
  // watermark by last_offset_delta + 1. Returns the base offset given to the batch.
  // Requires last_offset_delta >= 0 and batch.size() >= the batch header size.
  std::int64_t append(std::span<const std::uint8_t> batch, std::int32_t last_offset_delta,
                      std::int64_t max_timestamp);

  // The first offset held: always 0 (nothing is ever deleted).
  [[nodiscard]] std::int64_t log_start_offset() const { return 0; }
  // The offset the next appended record gets; also Kafka's high watermark and log end offset
  // (there is one replica, so every appended record is committed at once).
  [[nodiscard]] std::int64_t high_watermark() const { return high_watermark_; }
  // Bytes of all stored batches.
  [[nodiscard]] std::size_t size_bytes() const { return size_bytes_; }
  // Number of stored batches.
  [[nodiscard]] std::size_t batch_count() const { return index_.size(); }

  // The batches from the one that holds `offset` to the end of the log, in offset order.
  // Empty when offset >= high_watermark() or offset < 0.
  [[nodiscard]] std::span<const StoredBatch> batches_from(std::int64_t offset) const;

  // The first batch whose max timestamp is >= timestamp_ms, or nullptr if there is none.
  [[nodiscard]] const StoredBatch* first_batch_at_or_after(std::int64_t timestamp_ms) const;

 private:
  // Copies `bytes` into the current segment, starting a new one when it does not fit.
  std::uint8_t* store(std::span<const std::uint8_t> bytes);

  static constexpr std::size_t kSegmentBytes = 1 << 20;  // a batch larger than this gets its own

  std::vector<std::unique_ptr<std::uint8_t[]>> segments_;
  std::size_t segment_used_ = 0;      // bytes used in segments_.back()
  std::size_t segment_capacity_ = 0;  // capacity of segments_.back()
  std::vector<StoredBatch> index_;    // ordered by base_offset
  std::int64_t high_watermark_ = 0;
  std::size_t size_bytes_ = 0;
};

}  // namespace kgroups::broker
