// SPDX-License-Identifier: Apache-2.0
#include "protocol/record_batch_rewriter.h"

#include <algorithm>
#include <array>
#include <cstring>

#include "protocol/record_compressor.h"
#include "protocol/record_validator.h"
#include "protocol/wire_reader.h"
#include "protocol/wire_writer.h"

namespace kgroups::protocol {
namespace {

// The xerial snappy framing starts with this magic (the Java client's SnappyOutputStream).
constexpr std::array<std::uint8_t, 8> kXerialMagic = {0x82, 'S', 'N', 'A', 'P', 'P', 'Y', 0};

SnappyFraming snappy_framing_of(std::span<const std::uint8_t> compressed) {
  return compressed.size() >= kXerialMagic.size() &&
                 std::equal(kXerialMagic.begin(), kXerialMagic.end(), compressed.begin())
             ? SnappyFraming::kXerial
             : SnappyFraming::kRaw;
}

}  // namespace

std::optional<std::int64_t> delete_horizon_ms(const RecordBatchHeader& header) {
  if ((header.attributes & kBatchDeleteHorizonFlag) == 0) return std::nullopt;
  return header.base_timestamp;
}

RecordBatchRewriter::RecordBatchRewriter(std::size_t max_uncompressed_bytes)
    : max_uncompressed_bytes_(max_uncompressed_bytes) {}

Result<std::span<const RecordEntry>> RecordBatchRewriter::read(
    std::span<const std::uint8_t> batch) {
  entries_.clear();
  const Result<RecordBatchHeader> header = parse_record_batch_header(batch);
  if (!header) return header.error();
  if (header->size_bytes() > batch.size()) return ErrorCode::kCorruptMessage;
  std::span<const std::uint8_t> section =
      batch.subspan(kBatchHeaderSize, header->size_bytes() - kBatchHeaderSize);
  if (header->compression() != Compression::kNone && header->record_count > 0) {
    const Result<ByteView> expanded =
        decompressor_.decompress(header->compression(), section, max_uncompressed_bytes_);
    if (!expanded) return expanded.error();
    section = *expanded;
  }
  // A record takes at least 7 bytes: the count cannot reserve more than the section holds.
  entries_.reserve(
      std::min(static_cast<std::size_t>(std::max(header->record_count, 0)), section.size() / 7));
  WireReader reader(section);
  for (std::int32_t i = 0; i < header->record_count; ++i) {
    const std::size_t start = reader.position();
    const std::int32_t length = reader.read_varint();
    if (!reader.ok() || length < 0) return ErrorCode::kCorruptMessage;
    const ByteView body = reader.read_raw(static_cast<std::size_t>(length));
    if (!reader.ok()) return ErrorCode::kCorruptMessage;
    RecordEntry entry;
    entry.encoded = ByteView(section.subspan(start, reader.position() - start));
    WireReader fields(body);
    (void)fields.read_int8();  // attributes
    entry.timestamp = header->base_timestamp + fields.read_varlong();
    entry.offset_delta_at = (body.data() - entry.encoded.data()) + fields.position();
    entry.offset_delta = fields.read_varint();
    const std::int32_t key_length = fields.read_varint();
    if (key_length >= 0) entry.key = fields.read_raw(static_cast<std::size_t>(key_length));
    const std::int32_t value_length = fields.read_varint();
    if (value_length >= 0) entry.value = fields.read_raw(static_cast<std::size_t>(value_length));
    if (!fields.ok() || key_length < -1 || value_length < -1) return ErrorCode::kCorruptMessage;
    entries_.push_back(entry);
  }
  if (reader.remaining() != 0) return ErrorCode::kCorruptMessage;
  unpacked_bytes_ = section.size();
  return std::span<const RecordEntry>(entries_);
}

void RecordBatchRewriter::write(std::span<const std::uint8_t> batch,
                                std::span<const std::uint8_t> keep,
                                std::int64_t new_delete_horizon_ms,
                                std::vector<std::uint8_t>& out) {
  const RecordBatchHeader header = *parse_record_batch_header(batch);
  const bool set_horizon = new_delete_horizon_ms >= 0;
  const std::int64_t base_timestamp = set_horizon ? new_delete_horizon_ms : header.base_timestamp;
  records_.clear();
  WireWriter records(records_);
  std::int32_t count = 0;
  std::int64_t max_timestamp = kNoTimestamp;
  std::vector<std::uint8_t> body;
  for (std::size_t i = 0; i < entries_.size() && i < keep.size(); ++i) {
    if (keep[i] == 0) continue;
    const RecordEntry& entry = entries_[i];
    ++count;
    max_timestamp = std::max(max_timestamp, entry.timestamp);
    if (!set_horizon) {
      records.write_raw(entry.encoded);
      continue;
    }
    // A new base timestamp: the record's timestamp delta changes, and with it its length.
    body.clear();
    WireWriter fields(body);
    fields.write_int8(0);  // attributes
    fields.write_varlong(entry.timestamp - base_timestamp);
    fields.write_raw(entry.encoded.subspan(entry.offset_delta_at));
    records.write_varint(static_cast<std::int32_t>(body.size()));
    records.write_raw(body);
  }
  std::int16_t attributes = header.attributes;
  if (set_horizon) attributes = static_cast<std::int16_t>(attributes | kBatchDeleteHorizonFlag);
  std::span<const std::uint8_t> section = records_;
  std::vector<std::uint8_t> compressed;
  if (count == 0) {
    attributes = static_cast<std::int16_t>(attributes & ~0x07);  // a header alone
  } else if (header.compression() != Compression::kNone) {
    const auto original = batch.subspan(kBatchHeaderSize, header.size_bytes() - kBatchHeaderSize);
    compressed = compress_records(header.compression(), records_, snappy_framing_of(original));
    section = compressed;
  }
  if (header.log_append_time() || count == 0) max_timestamp = header.max_timestamp;

  const std::size_t start = out.size();
  WireWriter writer(out);
  writer.write_int64(header.base_offset);
  writer.write_int32(
      static_cast<std::int32_t>(kBatchHeaderSize - kBatchLogOverhead + section.size()));
  writer.write_int32(header.partition_leader_epoch);
  writer.write_int8(2);
  writer.write_uint32(0);  // CRC, patched below
  writer.write_int16(attributes);
  writer.write_int32(header.last_offset_delta);
  writer.write_int64(base_timestamp);
  writer.write_int64(max_timestamp);
  writer.write_int64(header.producer_id);
  writer.write_int16(header.producer_epoch);
  writer.write_int32(header.base_sequence);
  writer.write_int32(count);
  writer.write_raw(section);
  const std::uint32_t crc = compute_batch_crc(std::span(out).subspan(start));
  writer.patch_int32(start + kBatchCrcOffset, static_cast<std::int32_t>(crc));
}

}  // namespace kgroups::protocol
