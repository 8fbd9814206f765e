// SPDX-License-Identifier: Apache-2.0
//
// RecordValidator: the broker's check of what a producer writes, after Kafka's LogValidator,
// ProduceRequest.validateRecords and DefaultRecord.readFrom. One partition's `records` of a
// Produce request (v3+) must be exactly one well-formed magic-2 batch whose records
// (decompressed when compressed) agree with its header; the result carries the largest
// record timestamp, which Kafka writes into the batch as its max_timestamp. For ListOffsets it
// also finds the first record at or after a timestamp in a stored batch.
// Errors are data (ErrorCode, plus a short reason for the broker's log), never exceptions.
// Uncompressed batches are checked in one pass over the bytes, allocating nothing; compressed
// ones are decompressed into a buffer the validator owns and reuses (RecordDecompressor), so
// once warm a validator allocates nothing either.
// Not thread-safe: use one per thread (or per connection). Movable, not copyable.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "protocol/byte_view.h"
#include "protocol/record_batch.h"
#include "protocol/record_decompressor.h"
#include "protocol/result.h"

namespace kgroups::protocol {

// Kafka's RecordBatch.NO_TIMESTAMP.
inline constexpr std::int64_t kNoTimestamp = -1;
inline constexpr std::size_t kDefaultMaxUncompressedBytes = std::size_t{32} << 20;

struct RecordValidatorOptions {
  // Largest records section a compressed batch may expand to, in bytes.
  std::size_t max_uncompressed_bytes = kDefaultMaxUncompressedBytes;
  // Whether batches may carry a producer id (>= 0): idempotent producers. The broker turns it
  // on and checks the id itself (ProducerWrites: only ids it issued).
  bool allow_producer_ids = false;
  // Whether batches may set the transactional attribute bit (the broker checks that the
  // producer's transaction holds the partition).
  bool allow_transactions = false;
};

// A batch that passed validate().
struct ValidatedBatch {
  RecordBatchHeader header;
  ByteView bytes;  // the whole batch: all of the `records` given to validate()
  // The largest record timestamp (base_timestamp + delta), or kNoTimestamp if none is
  // larger, as Kafka computes it. The caller rewrites the header's max_timestamp
  // (write_max_timestamp) when the two differ.
  std::int64_t max_timestamp = kNoTimestamp;
  // The smallest record timestamp (message.timestamp.before.max.ms checks it).
  std::int64_t min_timestamp = kNoTimestamp;
};

// A record found by find_record_at_or_after().
struct RecordAtTimestamp {
  std::int32_t offset_delta = 0;  // the record's offset - the batch's base_offset
  std::int64_t timestamp = 0;     // ms since the epoch

  bool operator==(const RecordAtTimestamp&) const = default;
};

class RecordValidator {
 public:
  explicit RecordValidator(RecordValidatorOptions options = {});

  // Validates one partition's `records` from a Produce request. The view in the result
  // points into `records`, which must outlive it. Checks, in this order; the first that
  // fails gives the error:
  // - kInvalidRecord: `records` is empty;
  // - kUnsupportedForMessageFormat: the magic byte is not 2;
  // - kCorruptMessage: shorter than a batch header, or batch_length below the header's
  //   size or past the end of `records`;
  // - kInvalidRecord: bytes after the first batch (Produce v3+ carries exactly one);
  // - kCorruptMessage: CRC-32C mismatch;
  // - kUnsupportedCompressionType: codec bits above 4;
  // - kInvalidRecord: base_offset is not 0; record_count <= 0 or not last_offset_delta + 1
  //   (so last_offset_delta < 0 too); a control batch (clients may not write control records); the
  //   transactional bit, or a producer id >= 0, where the options do not allow them; a
  //   producer id >= 0 with base_sequence < 0;
  // - kInvalidTimestamp: timestamp type LogAppendTime (only the broker may set it);
  // - kInvalidRecord: record_count larger than the (uncompressed) bytes could hold;
  // - kCorruptMessage: compressed records that do not decompress;
  // - kInvalidRecord: compressed records that expand past max_uncompressed_bytes;
  // then per record, in order:
  // - kInvalidRecord: the records end before record_count of them;
  // - kCorruptMessage: a field that does not fit the record's length (varint length,
  //   attributes, timestamp and offset deltas, key and value with -1 for null, header count
  //   >= 0, header keys not null), or bytes left in the record after its last field;
  // - kInvalidRecord: an offset delta other than the record's index (0, 1, 2, ...);
  // - kInvalidTimestamp: base_timestamp + timestamp delta overflows;
  // - kInvalidRecord: with `require_keys` (a compacted topic), a record with a null key;
  // and last, kInvalidRecord: bytes left after record_count records.
  Result<ValidatedBatch> validate(std::span<const std::uint8_t> records, bool require_keys = false);

  // For ListOffsets by timestamp: the first record of `batch` (one whole stored batch,
  // compressed or not) whose timestamp is >= `timestamp_ms`, or std::nullopt if none is. A
  // LogAppendTime batch gives its first record with the batch's max_timestamp. The CRC is not
  // checked (the batch passed validate() when it was stored) but every read is bounds-checked.
  // Errors: as validate() for the header, the decompression and the records up to the match.
  Result<std::optional<RecordAtTimestamp>> find_record_at_or_after(
      std::span<const std::uint8_t> batch, std::int64_t timestamp_ms);

  // Why the last validate() or find_record_at_or_after() failed, for a log line ("record 3:
  // key length runs past the record"); "" after a success. Valid until the next call.
  [[nodiscard]] std::string_view rejection_reason() const { return {reason_.data(), reason_size_}; }

  [[nodiscard]] const RecordValidatorOptions& options() const { return options_; }

 private:
  // The records section of a batch whose header passed the checks, decompressed if need be.
  Result<ByteView> records_section(const RecordBatchHeader& header,
                                   std::span<const std::uint8_t> batch);
  // Records `what` (with the record's index when >= 0, and `detail` when given) as the
  // rejection reason and returns `code`.
  ErrorCode reject(ErrorCode code, std::string_view what, std::int32_t record = -1,
                   std::string_view detail = {});
  void append_reason(std::string_view text);

  RecordValidatorOptions options_;
  RecordDecompressor decompressor_;
  std::array<char, 160> reason_{};
  std::size_t reason_size_ = 0;  // characters of reason_ in use
};

}  // namespace kgroups::protocol
