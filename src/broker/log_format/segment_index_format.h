// SPDX-License-Identifier: Apache-2.0
//
// Kafka's sparse indexes of a segment, built from its batches exactly as Kafka's LogSegment
// builds them while appending one batch at a time (LogSegment.append) or while recovering
// (LogSegment.recover):
// - `.index`: 8-byte entries, big-endian: the offset relative to the segment's base offset
//   (int32), then the byte position of the batch in the segment (int32);
// - `.timeindex`: 12-byte entries, big-endian: a timestamp (int64), then a relative offset
//   (int32).
// A batch gets an entry when more than index.interval.bytes were appended since the last
// entry, counted before the batch itself: the `.index` entry is (its last offset, its
// position), the `.timeindex` entry (the largest max timestamp of the segment so far, the last
// offset of the batch that has it), written only when that timestamp grew past the last
// entry's. When a segment rolls (and after recovery) the time index also gets that
// (largest timestamp, offset) pair, again only when it grew.
// Also their decoders, for `kgroups dump-log` and tests. Thread-safe: pure functions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "broker/log_format/segment_scan.h"

namespace kgroups::broker {

inline constexpr std::size_t kDefaultIndexIntervalBytes = 4096;  // index.interval.bytes
inline constexpr std::size_t kOffsetIndexEntryBytes = 8;
inline constexpr std::size_t kTimeIndexEntryBytes = 12;

// The `.index` Kafka would hold for `batches`, the batches of the segment at `base_offset` in
// order (as scan_segment() gives them). Every last offset must be within 2^31-1 of
// `base_offset` (Kafka rolls a segment before that).
std::vector<std::uint8_t> build_offset_index(
    std::int64_t base_offset, std::span<const ScannedBatch> batches,
    std::size_t interval_bytes = kDefaultIndexIntervalBytes);
// The `.timeindex`; `closed`: the segment is no longer the active one, or Kafka's recovery
// rebuilt it (either way it gets the closing entry).
std::vector<std::uint8_t> build_time_index(std::int64_t base_offset,
                                           std::span<const ScannedBatch> batches, bool closed,
                                           std::size_t interval_bytes = kDefaultIndexIntervalBytes);

struct OffsetIndexEntry {
  std::int64_t offset = 0;    // absolute: base offset + the relative offset stored
  std::int32_t position = 0;  // byte position in the segment
};
struct TimeIndexEntry {
  std::int64_t timestamp = 0;  // ms since the epoch
  std::int64_t offset = 0;     // absolute
};
// The entries of the index files of the segment at `base_offset`. Kafka preallocates an
// active segment's indexes with zeros, so, as Kafka's DumpLogSegments does, reading stops at
// the first entry whose relative offset is 0 after the first entry, or at an all-zero first
// entry; a trailing partial entry is left out.
std::vector<OffsetIndexEntry> parse_offset_index(std::span<const std::uint8_t> bytes,
                                                 std::int64_t base_offset);
std::vector<TimeIndexEntry> parse_time_index(std::span<const std::uint8_t> bytes,
                                             std::int64_t base_offset);

}  // namespace kgroups::broker
