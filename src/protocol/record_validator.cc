// SPDX-License-Identifier: Apache-2.0

#include "protocol/record_validator.h"

#include <algorithm>
#include <charconv>
#include <limits>

namespace kgroups::protocol {
namespace {

// The least batch_length: the header after the length field.
constexpr std::int32_t kMinBatchLength = kBatchHeaderSize - kBatchLogOverhead;
// The smallest record: a 1-byte length, then attributes, timestamp delta, offset delta, key
// length, value length and header count of one byte each.
constexpr std::size_t kMinRecordSize = 7;
constexpr int kMaxCodec = static_cast<int>(Compression::kZstd);

// Why a record walk stopped short: the error, a static reason and the record at fault.
struct WalkFailure {
  ErrorCode code = ErrorCode::kNone;
  std::string_view what;
  std::int32_t record = -1;  // index of the record; -1 for the batch as a whole
};

// Zig-zag varint of at most 5 bytes in [p, end) (Kafka's ByteUtils.readVarint; bits past
// the 32nd are refused). Advances `p` and returns true, or returns false.
bool read_varint_slow(const std::uint8_t*& p, const std::uint8_t* end, std::int32_t& out) {
  std::uint32_t raw = 0;
  const std::uint8_t* q = p;
  for (int shift = 0; shift < 35; shift += 7) {
    if (q == end) return false;
    const std::uint8_t byte = *q++;
    if (shift == 28 && (byte & 0xF0) != 0) return false;
    raw |= static_cast<std::uint32_t>(byte & 0x7F) << shift;
    if ((byte & 0x80) == 0) {
      p = q;
      out = static_cast<std::int32_t>((raw >> 1) ^ (0U - (raw & 1)));
      return true;
    }
  }
  return false;
}

inline bool read_varint(const std::uint8_t*& p, const std::uint8_t* end, std::int32_t& out) {
  std::uint32_t raw = 0;
  if (p != end && *p < 0x80) {  // one byte (-64..63): lengths of small fields, deltas
    raw = *p++;
  } else if (end - p >= 2 && p[1] < 0x80) {  // two bytes (up to +-8191): record lengths
    raw = (p[0] & 0x7FU) | static_cast<std::uint32_t>(p[1]) << 7;
    p += 2;
  } else {
    return read_varint_slow(p, end, out);
  }
  out = static_cast<std::int32_t>((raw >> 1) ^ (0U - (raw & 1)));
  return true;
}

// Zig-zag varlong of at most 10 bytes in [p, end).
bool read_varlong_slow(const std::uint8_t*& p, const std::uint8_t* end, std::int64_t& out) {
  std::uint64_t raw = 0;
  const std::uint8_t* q = p;
  for (int shift = 0; shift < 70; shift += 7) {
    if (q == end) return false;
    const std::uint8_t byte = *q++;
    if (shift == 63 && (byte & 0xFE) != 0) return false;
    raw |= static_cast<std::uint64_t>(byte & 0x7F) << shift;
    if ((byte & 0x80) == 0) {
      p = q;
      out = static_cast<std::int64_t>((raw >> 1) ^ (0ULL - (raw & 1)));
      return true;
    }
  }
  return false;
}

inline bool read_varlong(const std::uint8_t*& p, const std::uint8_t* end, std::int64_t& out) {
  if (p != end && *p < 0x80) {
    const std::uint64_t raw = *p++;
    out = static_cast<std::int64_t>((raw >> 1) ^ (0ULL - (raw & 1)));
    return true;
  }
  return read_varlong_slow(p, end, out);
}

// Skips a varint-length byte string (key, value, header key or value) of `length` bytes;
// -1 is null. Returns the static reason it does not fit, or "".
inline std::string_view skip_bytes(const std::uint8_t*& p, const std::uint8_t* end,
                                   std::int32_t length, std::string_view negative,
                                   std::string_view past_end) {
  if (length >= 0) {
    if (length > end - p) return past_end;
    p += length;
    return {};
  }
  return length == -1 ? std::string_view{} : negative;
}

// The fields of one record the walk needs.
struct RecordFields {
  std::int64_t timestamp_delta = 0;
  std::int32_t offset_delta = 0;
  bool null_key = false;
};

// Parses the record body in [p, record_end) (after its length): every field must fit and
// end exactly at `record_end`. Returns the static reason it does not, or "".
std::string_view parse_record(const std::uint8_t* p, const std::uint8_t* const record_end,
                              RecordFields& fields) {
  if (p == record_end) return "attributes run past the record";
  ++p;  // attributes: unused by magic 2
  if (!read_varlong(p, record_end, fields.timestamp_delta)) {
    return "timestamp delta runs past the record";
  }
  if (!read_varint(p, record_end, fields.offset_delta)) return "offset delta runs past the record";
  std::int32_t key_length = 0;
  if (!read_varint(p, record_end, key_length)) return "key length runs past the record";
  fields.null_key = key_length == -1;
  if (const auto what =
          skip_bytes(p, record_end, key_length, "negative key length", "key runs past the record");
      !what.empty()) {
    return what;
  }
  std::int32_t value_length = 0;
  if (!read_varint(p, record_end, value_length)) return "value length runs past the record";
  if (const auto what = skip_bytes(p, record_end, value_length, "negative value length",
                                   "value runs past the record");
      !what.empty()) {
    return what;
  }
  std::int32_t header_count = 0;
  if (!read_varint(p, record_end, header_count)) return "header count runs past the record";
  if (header_count < 0) return "negative header count";
  if (header_count > record_end - p) return "header count runs past the record";
  for (std::int32_t header = 0; header < header_count; ++header) {
    std::int32_t key_length_of_header = 0;
    if (!read_varint(p, record_end, key_length_of_header)) {
      return "header key length runs past the record";
    }
    if (key_length_of_header < 0) return "null header key";
    if (key_length_of_header > record_end - p) return "header key runs past the record";
    p += key_length_of_header;
    std::int32_t value_length_of_header = 0;
    if (!read_varint(p, record_end, value_length_of_header)) {
      return "header value length runs past the record";
    }
    if (const auto what =
            skip_bytes(p, record_end, value_length_of_header, "negative header value length",
                       "header value runs past the record");
        !what.empty()) {
      return what;
    }
  }
  if (p != record_end) return "bytes left after the record's last field";
  return {};
}

// Walks the records section of a batch (uncompressed bytes): every record's structure, its
// offset delta (== its index) and timestamp (base_timestamp + delta, no overflow), calling
// `visit(offset_delta, timestamp)` per record; `visit` returns false to stop early. Without
// an early stop, exactly `record_count` records must fill the section.
// With kRequireKeys, a record with a null key fails (compacted topics). Without
// kDenseOffsets, offset deltas may skip values (batches the log cleaner rewrote) but never go
// below the record's index.
// The next record's position depends only on this one's length, not on its fields, so the
// processor can parse several records at once.
template <bool kRequireKeys = false, bool kDenseOffsets = true, class Visit>
WalkFailure walk_records(std::span<const std::uint8_t> section, std::int32_t record_count,
                         std::int64_t base_timestamp, Visit&& visit) {
  if (static_cast<std::size_t>(record_count) > section.size() / kMinRecordSize) {
    return {ErrorCode::kInvalidRecord, "record_count is larger than the records' bytes can hold"};
  }
  const std::uint8_t* p = section.data();
  const std::uint8_t* const end = p + section.size();
  for (std::int32_t index = 0; index < record_count; ++index) {
    if (p == end) {
      return {ErrorCode::kInvalidRecord, "the records end before record_count of them", index};
    }
    std::int32_t length = 0;
    if (!read_varint(p, end, length)) {
      return {ErrorCode::kCorruptMessage, "length is not a valid varint", index};
    }
    if (length < 0) return {ErrorCode::kCorruptMessage, "negative length", index};
    if (length > end - p) return {ErrorCode::kCorruptMessage, "length runs past the batch", index};
    const std::uint8_t* const record = p;
    p += length;
    RecordFields fields;
    if (const std::string_view what = parse_record(record, p, fields); !what.empty()) {
      return {ErrorCode::kCorruptMessage, what, index};
    }
    if (kDenseOffsets ? fields.offset_delta != index : fields.offset_delta < index) {
      return {ErrorCode::kInvalidRecord, "offset delta is not the record's index", index};
    }
    if constexpr (kRequireKeys) {
      if (fields.null_key) {
        return {ErrorCode::kInvalidRecord, "null key in a compacted topic", index};
      }
    }
    std::int64_t timestamp = 0;
    if (__builtin_add_overflow(base_timestamp, fields.timestamp_delta, &timestamp)) {
      return {ErrorCode::kInvalidTimestamp, "base_timestamp + timestamp delta overflows", index};
    }
    if (!visit(fields.offset_delta, timestamp)) return {};
  }
  if (p != end) {
    return {ErrorCode::kInvalidRecord, "bytes left after record_count records"};
  }
  return {};
}

std::string_view codec_name(Compression codec) {
  switch (codec) {
    case Compression::kNone:
      return "uncompressed";
    case Compression::kGzip:
      return "gzip";
    case Compression::kSnappy:
      return "snappy";
    case Compression::kLz4:
      return "lz4";
    case Compression::kZstd:
      return "zstd";
  }
  return "unknown codec";
}

// The header checks shared by validate() and find_record_at_or_after(): magic, lengths
// against `bytes`. Returns the static reason, or "" when they pass.
std::string_view check_length(const RecordBatchHeader& header, std::size_t available) {
  if (header.batch_length < kMinBatchLength) return "batch_length is shorter than the header";
  if (header.size_bytes() > available) return "batch_length runs past the records";
  return {};
}

}  // namespace

RecordValidator::RecordValidator(RecordValidatorOptions options) : options_(options) {}

Result<ValidatedBatch> RecordValidator::validate(std::span<const std::uint8_t> records,
                                                 bool require_keys) {
  reason_size_ = 0;
  if (records.empty()) return reject(ErrorCode::kInvalidRecord, "no record batch");
  Result<RecordBatchHeader> parsed = parse_record_batch_header(records);
  if (!parsed) {
    return reject(parsed.error(), parsed.error() == ErrorCode::kUnsupportedForMessageFormat
                                      ? "magic is not 2"
                                      : "shorter than a batch header");
  }
  const RecordBatchHeader& header = *parsed;
  if (const std::string_view what = check_length(header, records.size()); !what.empty()) {
    return reject(ErrorCode::kCorruptMessage, what);
  }
  if (header.size_bytes() != records.size()) {
    return reject(ErrorCode::kInvalidRecord, "more than one batch (bytes after the first)");
  }
  if (compute_batch_crc(records) != header.crc) {
    return reject(ErrorCode::kCorruptMessage, "CRC-32C mismatch");
  }
  if ((header.attributes & 0x07) > kMaxCodec) {
    return reject(ErrorCode::kUnsupportedCompressionType, "unknown compression codec");
  }
  if (header.base_offset != 0) return reject(ErrorCode::kInvalidRecord, "base_offset is not 0");
  // Together these also refuse a negative last_offset_delta (Kafka's "invalid offset range").
  if (header.record_count <= 0) {
    return reject(ErrorCode::kInvalidRecord, "record_count is not positive");
  }
  if (static_cast<std::int64_t>(header.record_count) !=
      static_cast<std::int64_t>(header.last_offset_delta) + 1) {
    return reject(ErrorCode::kInvalidRecord, "record_count is not last_offset_delta + 1");
  }
  if (header.is_control()) {
    return reject(ErrorCode::kInvalidRecord, "control batch (clients may not write one)");
  }
  if (header.is_transactional() && !options_.allow_transactions) {
    return reject(ErrorCode::kInvalidRecord, "transactional batch (transactions are off)");
  }
  if (header.producer_id >= 0 && !options_.allow_producer_ids) {
    return reject(ErrorCode::kInvalidRecord, "producer id set (idempotence is off)");
  }
  if (header.producer_id >= 0 && header.base_sequence < 0) {
    return reject(ErrorCode::kInvalidRecord, "producer id with a negative base_sequence");
  }
  if (header.log_append_time()) {
    return reject(ErrorCode::kInvalidTimestamp, "timestamp type LogAppendTime set by a client");
  }
  Result<ByteView> section = records_section(header, records);
  if (!section) return section.error();
  std::int64_t max_timestamp = kNoTimestamp;
  std::int64_t min_timestamp = std::numeric_limits<std::int64_t>::max();
  const auto newest = [&max_timestamp, &min_timestamp](std::int32_t /*offset_delta*/,
                                                       std::int64_t timestamp) {
    max_timestamp = std::max(max_timestamp, timestamp);
    min_timestamp = std::min(min_timestamp, timestamp);
    return true;
  };
  const WalkFailure failure =
      require_keys
          ? walk_records<true>(*section, header.record_count, header.base_timestamp, newest)
          : walk_records(*section, header.record_count, header.base_timestamp, newest);
  if (failure.code != ErrorCode::kNone) return reject(failure.code, failure.what, failure.record);
  return ValidatedBatch{header, records, max_timestamp, min_timestamp};
}

Result<std::optional<RecordAtTimestamp>> RecordValidator::find_record_at_or_after(
    std::span<const std::uint8_t> batch, std::int64_t timestamp_ms) {
  reason_size_ = 0;
  Result<RecordBatchHeader> parsed = parse_record_batch_header(batch);
  if (!parsed) return reject(parsed.error(), "not a magic-2 batch header");
  const RecordBatchHeader& header = *parsed;
  if (const std::string_view what = check_length(header, batch.size()); !what.empty()) {
    return reject(ErrorCode::kCorruptMessage, what);
  }
  if ((header.attributes & 0x07) > kMaxCodec) {
    return reject(ErrorCode::kUnsupportedCompressionType, "unknown compression codec");
  }
  if (header.record_count <= 0) {
    return reject(ErrorCode::kInvalidRecord, "record_count is not positive");
  }
  std::optional<RecordAtTimestamp> found;
  if (header.log_append_time()) {  // every record carries the batch's max_timestamp
    if (header.max_timestamp >= timestamp_ms) found = RecordAtTimestamp{0, header.max_timestamp};
    return found;
  }
  Result<ByteView> section = records_section(header, batch.first(header.size_bytes()));
  if (!section) return section.error();
  const WalkFailure failure = walk_records<false, false>(
      *section, header.record_count, header.base_timestamp,
      [&found, timestamp_ms](std::int32_t offset_delta, std::int64_t timestamp) {
        if (timestamp < timestamp_ms) return true;
        found = RecordAtTimestamp{offset_delta, timestamp};
        return false;
      });
  if (failure.code != ErrorCode::kNone) return reject(failure.code, failure.what, failure.record);
  return found;
}

Result<ByteView> RecordValidator::records_section(const RecordBatchHeader& header,
                                                  std::span<const std::uint8_t> batch) {
  const auto section = batch.subspan(kBatchHeaderSize);
  const Compression codec = header.compression();
  if (codec == Compression::kNone) return ByteView(section);
  const std::size_t limit = options_.max_uncompressed_bytes;
  if (static_cast<std::size_t>(header.record_count) > limit / kMinRecordSize) {
    return reject(ErrorCode::kInvalidRecord,
                  "record_count is larger than max_uncompressed_bytes can hold");
  }
  Result<ByteView> records = decompressor_.decompress(codec, section, limit);
  if (!records) {
    return reject(records.error(), codec_name(codec), -1, decompressor_.last_error());
  }
  return records;
}

ErrorCode RecordValidator::reject(ErrorCode code, std::string_view what, std::int32_t record,
                                  std::string_view detail) {
  reason_size_ = 0;
  if (record >= 0) {
    std::array<char, 16> digits{};
    const auto [end, error] = std::to_chars(digits.data(), digits.data() + digits.size(), record);
    append_reason("record ");
    if (error == std::errc{}) append_reason({digits.data(), end});
    append_reason(": ");
  }
  append_reason(what);
  if (!detail.empty()) {
    append_reason(": ");
    append_reason(detail);
  }
  return code;
}

void RecordValidator::append_reason(std::string_view text) {
  const std::size_t count = std::min(text.size(), reason_.size() - reason_size_);
  std::copy_n(text.begin(), count, reason_.begin() + static_cast<std::ptrdiff_t>(reason_size_));
  reason_size_ += count;
}

}  // namespace kgroups::protocol
