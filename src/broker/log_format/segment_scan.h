// SPDX-License-Identifier: Apache-2.0
//
// scan_segment(): walks the record batches (magic 2) of one segment file's bytes, as Kafka's
// recovery does, and says where the valid batches end and why: the file's end, a zeroed tail
// (space reserved and never written), a batch cut short (a torn write), or a batch that fails
// a check (length, magic, offsets, CRC-32C). Recovery (storage/log_directory.h), the indexes
// (segment_index_format.h) and `kgroups dump-log` share it.
// Thread-safe: a pure function over caller-owned bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace kgroups::broker {

// A batch header's fields, and where the batch is in its segment.
struct ScannedBatch {
  std::size_t position = 0;    // byte position of the batch in the segment
  std::size_t size_bytes = 0;  // batchLength + 12: the whole batch
  std::int64_t base_offset = 0;
  std::int64_t last_offset = 0;  // base_offset + lastOffsetDelta
  std::int64_t base_timestamp = -1;
  std::int64_t max_timestamp = -1;
  std::int32_t partition_leader_epoch = -1;
  std::int64_t producer_id = -1;
  std::int16_t producer_epoch = -1;
  std::int32_t base_sequence = -1;
  std::int32_t record_count = 0;
  std::int16_t attributes = 0;  // bits 0-2 codec, 3 log-append time, 4 txn, 5 control
  std::uint32_t crc = 0;        // as stored (checked only when the scan checked CRCs)
  bool transactional = false;   // attributes bit 4
  bool control = false;         // attributes bit 5
};

enum class ScanStop {
  kEnd,       // every byte belonged to a valid batch
  kZeroTail,  // the rest is zero bytes: reserved space never written (not corruption)
  kTornTail,  // the last batch runs past the end: a write cut short
  kCorrupt,   // a batch fails a check
};

struct SegmentScan {
  std::vector<ScannedBatch> batches;  // the valid batches, in order
  std::size_t valid_bytes = 0;        // bytes of the valid prefix (where the last batch ends)
  ScanStop stop = ScanStop::kEnd;
  std::string reason;  // unless kEnd: what was found at valid_bytes, naming the byte position
};

// The largest batch a scan accepts: 1 GiB, far above any max.message.bytes Kafka allows
// (its int32 bound); a larger batchLength is taken as corruption, not a batch.
inline constexpr std::size_t kMaxScannedBatchBytes = std::size_t{1} << 30;

// Scans `bytes` from the start, batch by batch, and stops at the first of:
// - the end of `bytes` (kEnd);
// - bytes that are all zero from there to the end (kZeroTail);
// - fewer than 12 bytes left that are not all zero, or a batch whose declared size runs past
//   the end (kTornTail);
// - a batchLength below 49 (the header would not fit) or above kMaxScannedBatchBytes, a magic
//   other than 2, a negative lastOffsetDelta, a base offset below `first_offset` (for the
//   first batch: the segment's base offset) or not above the previous batch's last offset
//   (gaps are allowed: compaction), or, when `check_crc`, a CRC-32C that does not match
//   (kCorrupt).
// With `check_crc` false (data below the recovery point) the CRCs are not computed; the
// other checks are made all the same.
SegmentScan scan_segment(std::span<const std::uint8_t> bytes, std::int64_t first_offset,
                         bool check_crc);

}  // namespace kgroups::broker
