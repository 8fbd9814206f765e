// SPDX-License-Identifier: Apache-2.0
//
// RecordBatchRewriter: reads the records of a stored magic-2 batch (decompressing it when
// compressed) and writes the same batch holding only some of them, as Kafka's log cleaner
// does (MemoryRecords.filterTo): the base offset, last offset delta, partition leader epoch,
// producer id, epoch and base sequence, the attributes and each kept record's offset delta
// stay; the records are compressed again with the batch's own codec (snappy in its original
// framing) and the CRC is recomputed. It can also set the batch's delete horizon (KIP-534:
// attribute bit 6, the base timestamp then holds the horizon and the records' timestamp
// deltas are rewritten so every record keeps its timestamp). A batch left with no record is
// written as a header alone, uncompressed (what Kafka keeps of a producer's last batch).
// Views returned by read() stay valid until the next read(). Not thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "protocol/byte_view.h"
#include "protocol/record_batch.h"
#include "protocol/record_decompressor.h"
#include "protocol/result.h"

namespace kgroups::protocol {

// Attribute bit 6: the batch's base timestamp is its delete horizon (KIP-534).
inline constexpr std::int16_t kBatchDeleteHorizonFlag = 0x40;

// The delete horizon (ms) of a batch, or std::nullopt when none was set.
std::optional<std::int64_t> delete_horizon_ms(const RecordBatchHeader& header);

// One record of a batch as the log cleaner needs it.
struct RecordEntry {
  std::int32_t offset_delta = 0;
  std::int64_t timestamp = 0;       // base_timestamp + timestamp delta, ms
  std::optional<ByteView> key;      // std::nullopt: a null key
  std::optional<ByteView> value;    // std::nullopt: a tombstone (null value)
  ByteView encoded;                 // the whole record, from its length varint on
  std::size_t offset_delta_at = 0;  // where the offset delta starts inside `encoded`
};

class RecordBatchRewriter {
 public:
  // Compressed batches may expand to at most `max_uncompressed_bytes`.
  explicit RecordBatchRewriter(std::size_t max_uncompressed_bytes);

  // The records of `batch` (one whole stored batch), in order. Errors: kCorruptMessage when a
  // record does not parse or the count differs from the header's; the decompressor's errors
  // (record_decompressor.h) for compressed records.
  Result<std::span<const RecordEntry>> read(std::span<const std::uint8_t> batch);
  // Bytes of the records section the last successful read() parsed (decompressed when the
  // batch is compressed).
  [[nodiscard]] std::size_t unpacked_bytes() const { return unpacked_bytes_; }

  // Appends to `out` the batch last given to read(), `batch`, holding only the records whose
  // `keep` entry (one per record read) is non-zero. With `new_delete_horizon_ms` >= 0 the
  // batch gets that delete horizon; with -1 it keeps its own (or none).
  void write(std::span<const std::uint8_t> batch, std::span<const std::uint8_t> keep,
             std::int64_t new_delete_horizon_ms, std::vector<std::uint8_t>& out);

 private:
  RecordDecompressor decompressor_;
  std::size_t max_uncompressed_bytes_;
  std::vector<RecordEntry> entries_;   // the records of the last read()
  std::size_t unpacked_bytes_ = 0;     // their records section's size
  std::vector<std::uint8_t> records_;  // kept records, encoded, before compression
};

}  // namespace kgroups::protocol
