// SPDX-License-Identifier: Apache-2.0
//
// Magic-2 record batches (Kafka's DefaultRecordBatch) handled as opaque bytes: parse the
// 61-byte header, split a Produce `records` blob into batches and check each (magic,
// length, CRC-32C over bytes [21, end), offset/count consistency), and write the broker's
// base offset, leader epoch or max timestamp in place. Nothing here decompresses or looks at
// the records; RecordValidator (record_validator.h) does that.
// Rewriting base_offset and partition_leader_epoch never changes the CRC; rewriting
// max_timestamp does, so write_max_timestamp recomputes it.
// Thread-safe: pure functions over caller-owned bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "protocol/byte_view.h"
#include "protocol/result.h"

namespace kgroups::protocol {

// Byte offsets of the header fields inside a magic-2 batch.
inline constexpr std::size_t kBatchBaseOffsetOffset = 0;
inline constexpr std::size_t kBatchLengthOffset = 8;
inline constexpr std::size_t kBatchPartitionLeaderEpochOffset = 12;
inline constexpr std::size_t kBatchMagicOffset = 16;
inline constexpr std::size_t kBatchCrcOffset = 17;
inline constexpr std::size_t kBatchAttributesOffset = 21;  // the CRC covers [21, end)
inline constexpr std::size_t kBatchMaxTimestampOffset = 35;
inline constexpr std::size_t kBatchHeaderSize = 61;  // records start here
// batch_length counts the bytes after the length field, so a batch is 12 + batch_length.
inline constexpr std::size_t kBatchLogOverhead = 12;

// Codec id in attribute bits 0-2.
enum class Compression : std::int8_t { kNone = 0, kGzip = 1, kSnappy = 2, kLz4 = 3, kZstd = 4 };

struct RecordBatchHeader {
  std::int64_t base_offset = 0;   // offset of the first record; the broker's to set
  std::int32_t batch_length = 0;  // bytes after this field (batch size - 12)
  std::int32_t partition_leader_epoch = -1;
  std::int8_t magic = 2;
  std::uint32_t crc = 0;               // CRC-32C of bytes [21, end)
  std::int16_t attributes = 0;         // bits 0-2 codec, 3 log-append time, 4 txn, 5 control
  std::int32_t last_offset_delta = 0;  // offset of the last record - base_offset
  std::int64_t base_timestamp = 0;     // ms since the epoch
  std::int64_t max_timestamp = 0;      // ms since the epoch
  std::int64_t producer_id = -1;
  std::int16_t producer_epoch = -1;
  std::int32_t base_sequence = -1;
  std::int32_t record_count = 0;

  [[nodiscard]] Compression compression() const {
    return static_cast<Compression>(attributes & 0x07);
  }
  [[nodiscard]] bool log_append_time() const { return (attributes & 0x08) != 0; }
  [[nodiscard]] bool is_transactional() const { return (attributes & 0x10) != 0; }
  [[nodiscard]] bool is_control() const { return (attributes & 0x20) != 0; }
  // Size of the whole batch in bytes.
  [[nodiscard]] std::size_t size_bytes() const {
    return kBatchLogOverhead + static_cast<std::size_t>(batch_length);
  }

  bool operator==(const RecordBatchHeader&) const = default;
};

// One validated batch inside a records blob.
struct RecordBatchView {
  RecordBatchHeader header;
  ByteView bytes;  // the whole batch, viewing the blob
};

// Parses the header at the start of `bytes` without checking the length or the CRC.
// Errors: kUnsupportedForMessageFormat when the magic byte (offset 16) is not 2 (a v0/v1
// message set); kCorruptMessage when fewer than 61 bytes are given.
Result<RecordBatchHeader> parse_record_batch_header(std::span<const std::uint8_t> bytes);

// Splits a Produce `records` blob into batches, validating each. An empty blob gives no
// batches. Errors, for the first bad batch:
// - kUnsupportedForMessageFormat: magic is not 2;
// - kCorruptMessage: truncated header, batch_length too small or past the blob's end,
//   or a CRC-32C mismatch;
// - kInvalidRecord: record_count is not last_offset_delta + 1, or not positive;
// - kUnsupportedCompressionType: attribute codec bits above 4.
// The views point into `records`, which must outlive them.
Result<std::vector<RecordBatchView>> split_record_batches(std::span<const std::uint8_t> records);

// The CRC-32C a batch should carry: over bytes [21, end) of `batch`.
std::uint32_t compute_batch_crc(std::span<const std::uint8_t> batch);

// Writes base_offset (bytes 0-7) into a batch in place; `batch` must hold at least 8 bytes.
void write_base_offset(std::span<std::uint8_t> batch, std::int64_t base_offset);

// Writes partition_leader_epoch (bytes 12-15) in place; `batch` must hold at least 16 bytes.
void write_partition_leader_epoch(std::span<std::uint8_t> batch, std::int32_t epoch);

// Writes max_timestamp (bytes 35-42) in place and re-signs the batch: the CRC (bytes 17-20)
// is recomputed over [21, end), so `batch` must be the whole batch (at least 61 bytes).
// Kafka sets max_timestamp to the largest record timestamp (RecordValidator computes it).
void write_max_timestamp(std::span<std::uint8_t> batch, std::int64_t max_timestamp);

// Stamps a batch with the broker's clock, as a LogAppendTime topic does: sets the
// log-append-time attribute bit (3), writes `now_ms` as max_timestamp and recomputes the
// CRC. Record timestamps stay as sent; readers use max_timestamp for every record of such a
// batch. `batch` must be the whole batch (at least 61 bytes).
void write_log_append_time(std::span<std::uint8_t> batch, std::int64_t now_ms);

}  // namespace kgroups::protocol
