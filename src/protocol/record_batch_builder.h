// SPDX-License-Identifier: Apache-2.0
//
// RecordBatchBuilder: encodes records into one magic-2 batch with a valid CRC-32C, the way a
// producer does, so tests, benchmarks and test clients can make real Produce payloads.
// base_offset is 0 (the broker assigns offsets); base_timestamp is the first record's
// timestamp. The batch is uncompressed unless build_compressed() is given the records
// compressed (record_compressor.h does that). Not thread-safe; the builder owns its buffer.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "protocol/batch_records.h"
#include "protocol/byte_view.h"
#include "protocol/record_batch.h"

namespace kgroups::protocol {

class RecordBatchBuilder {
 public:
  RecordBatchBuilder() = default;

  // Marks the batch idempotent (producer id, epoch and the first record's sequence).
  void set_producer(std::int64_t producer_id, std::int16_t producer_epoch,
                    std::int32_t base_sequence);

  // Sets the attribute bits written into the batch (0 by default): bit 3 log-append time,
  // 4 transactional, 5 control. The codec bits (0-2) are written as given by build() (so a
  // test can claim a codec the records do not use) and replaced by build_compressed().
  void set_attributes(std::int16_t attributes) { attributes_ = attributes; }

  // Adds a record; key and value may be null (std::nullopt). The bytes are copied.
  void add(std::optional<ByteView> key, std::optional<ByteView> value, std::int64_t timestamp_ms,
           std::span<const RecordHeader> headers = {});

  // Adds `record` as one record exactly as given: its varint length, then its fields. Nothing
  // is checked, so tests can build malformed records. The bytes are copied.
  void add_encoded(std::span<const std::uint8_t> record);

  [[nodiscard]] std::int32_t record_count() const { return record_count_; }
  // The encoded records, back to back: what a compressed batch compresses.
  [[nodiscard]] std::span<const std::uint8_t> records() const { return records_; }

  // Appends the finished batch to `out`. Valid with zero records only for tests of bad
  // input (Kafka rejects empty batches).
  void build(std::vector<std::uint8_t>& out) const;
  [[nodiscard]] std::vector<std::uint8_t> build() const;

  // Appends the batch with `compressed` in place of the encoded records and `codec` in the
  // attributes' codec bits: `compressed` should be records() compressed with `codec`.
  void build_compressed(Compression codec, std::span<const std::uint8_t> compressed,
                        std::vector<std::uint8_t>& out) const;

 private:
  void write_batch(std::int16_t attributes, std::span<const std::uint8_t> records,
                   std::vector<std::uint8_t>& out) const;

  std::vector<std::uint8_t> records_;  // encoded records, back to back
  std::int32_t record_count_ = 0;
  std::int16_t attributes_ = 0;
  std::int64_t base_timestamp_ = 0;
  std::int64_t max_timestamp_ = 0;
  std::int64_t producer_id_ = -1;
  std::int16_t producer_epoch_ = -1;
  std::int32_t base_sequence_ = -1;
};

}  // namespace kgroups::protocol
