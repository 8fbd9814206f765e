// SPDX-License-Identifier: Apache-2.0
//
// RecordBatchBuilder: encodes records into one uncompressed magic-2 batch with a valid
// CRC-32C, the way a producer does, so tests, benchmarks and test clients can make real
// Produce payloads. base_offset is 0 (the broker assigns offsets); base_timestamp is the first
// record's timestamp. Not thread-safe; the builder owns its buffer.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "protocol/batch_records.h"
#include "protocol/byte_view.h"

namespace kgroups::protocol {

class RecordBatchBuilder {
 public:
  RecordBatchBuilder() = default;

  // Marks the batch idempotent (producer id, epoch and the first record's sequence).
  void set_producer(std::int64_t producer_id, std::int16_t producer_epoch,
                    std::int32_t base_sequence);

  // Adds a record; key and value may be null (std::nullopt). The bytes are copied.
  void add(std::optional<ByteView> key, std::optional<ByteView> value, std::int64_t timestamp_ms,
           std::span<const RecordHeader> headers = {});

  [[nodiscard]] std::int32_t record_count() const { return record_count_; }

  // Appends the finished batch to `out`. Valid with zero records only for tests of bad
  // input (Kafka rejects empty batches).
  void build(std::vector<std::uint8_t>& out) const;
  [[nodiscard]] std::vector<std::uint8_t> build() const;

 private:
  std::vector<std::uint8_t> records_;  // encoded records, back to back
  std::int32_t record_count_ = 0;
  std::int64_t base_timestamp_ = 0;
  std::int64_t max_timestamp_ = 0;
  std::int64_t producer_id_ = -1;
  std::int16_t producer_epoch_ = -1;
  std::int32_t base_sequence_ = -1;
};

}  // namespace kgroups::protocol
