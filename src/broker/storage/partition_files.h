// SPDX-License-Identifier: Apache-2.0
//
// PartitionFiles: the folder of one partition in a log directory (`<topic>-<partition>`, as
// Kafka names it) and what its log needs of the disk: new segment files (FileSegmentBytes),
// the cleaner's `.log.cleaned` files, and the flush bookkeeping of the flush policy (Kafka's
// flush.messages / flush.ms): the records appended since the last flush, when the oldest of
// them was, and the recovery point (every offset below it was flushed; recovery after a crash
// checks only what lies beyond it).
// A BatchLog with PartitionFiles (BatchLog::attach_files) keeps its segments there instead of
// in memory.
// Not thread-safe: the broker's network thread owns it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <utility>

#include "broker/storage/segment_bytes.h"

namespace kgroups::broker {

class PartitionFiles {
 public:
  explicit PartitionFiles(std::filesystem::path directory) : directory_(std::move(directory)) {}

  [[nodiscard]] const std::filesystem::path& directory() const { return directory_; }

  // A new, empty segment file for offsets from `base_offset`, able to hold `capacity` bytes.
  // Throws std::system_error (the disk is full, the folder is gone).
  [[nodiscard]] std::shared_ptr<SegmentBytes> create_segment(std::int64_t base_offset,
                                                             std::size_t capacity) const;
  // The log cleaner's rewrite of the segment based at `base_offset`: a `.log.cleaned` file
  // of `capacity` bytes, all reserved. Throws std::system_error.
  [[nodiscard]] std::shared_ptr<SegmentBytes> create_cleaned_segment(std::int64_t base_offset,
                                                                     std::size_t capacity) const;

  // Flush bookkeeping (Cluster applies the policy, BatchLog::flush() flushes).
  struct FlushState {
    std::int64_t recovery_point = 0;       // offsets below it are on the disk
    std::int64_t unflushed_records = 0;    // records appended since the last flush
    std::int64_t first_unflushed_ms = -1;  // when the oldest of them was appended; -1: none
    bool flush_requested = false;          // flush.messages reached: the next group flush
  };
  FlushState& flush_state() { return flush_; }
  [[nodiscard]] const FlushState& flush_state() const { return flush_; }

 private:
  std::filesystem::path directory_;
  FlushState flush_;
};

}  // namespace kgroups::broker
