// SPDX-License-Identifier: Apache-2.0
//
// The records inside an uncompressed magic-2 batch (varint-encoded fields after the 61-byte
// header). The broker never needs them; tests, benchmarks and clients use them to check what
// a batch holds. Decoded fields view the batch bytes, which must outlive them.
// Thread-safe: pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "protocol/byte_view.h"
#include "protocol/result.h"

namespace kgroups::protocol {

struct RecordHeader {
  std::string_view key;
  std::optional<ByteView> value;  // std::nullopt is a null header value

  bool operator==(const RecordHeader&) const = default;
};

struct BatchRecord {
  std::int8_t attributes = 0;        // unused by Kafka; 0
  std::int64_t timestamp_delta = 0;  // ms after the batch's base_timestamp
  std::int32_t offset_delta = 0;     // offset - the batch's base_offset
  std::optional<ByteView> key;       // std::nullopt is a null key
  std::optional<ByteView> value;     // std::nullopt is a null value (tombstone)
  std::vector<RecordHeader> headers;

  bool operator==(const BatchRecord&) const = default;
};

// Decodes the records of one whole batch (as split_record_batches gives it).
// Errors: kUnsupportedCompressionType for a compressed batch (nothing is decompressed);
// kCorruptMessage when the header or any record is malformed, or the record count differs.
Result<std::vector<BatchRecord>> decode_batch_records(std::span<const std::uint8_t> batch);

}  // namespace kgroups::protocol
