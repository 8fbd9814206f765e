// SPDX-License-Identifier: Apache-2.0

#include "protocol/record_batch.h"

#include "protocol/crc32c.h"
#include "protocol/wire_reader.h"

namespace kgroups::protocol {
namespace {

void store_big_endian(std::span<std::uint8_t> out, std::uint64_t value, std::size_t size) {
  for (std::size_t i = 0; i < size; ++i) {
    out[i] = static_cast<std::uint8_t>(value >> (8 * (size - 1 - i)));
  }
}

}  // namespace

Result<RecordBatchHeader> parse_record_batch_header(std::span<const std::uint8_t> bytes) {
  if (bytes.size() > kBatchMagicOffset && static_cast<std::int8_t>(bytes[kBatchMagicOffset]) != 2) {
    return ErrorCode::kUnsupportedForMessageFormat;
  }
  if (bytes.size() < kBatchHeaderSize) return ErrorCode::kCorruptMessage;
  WireReader reader(bytes.first(kBatchHeaderSize));
  RecordBatchHeader header;
  header.base_offset = reader.read_int64();
  header.batch_length = reader.read_int32();
  header.partition_leader_epoch = reader.read_int32();
  header.magic = reader.read_int8();
  header.crc = reader.read_uint32();
  header.attributes = reader.read_int16();
  header.last_offset_delta = reader.read_int32();
  header.base_timestamp = reader.read_int64();
  header.max_timestamp = reader.read_int64();
  header.producer_id = reader.read_int64();
  header.producer_epoch = reader.read_int16();
  header.base_sequence = reader.read_int32();
  header.record_count = reader.read_int32();
  return header;
}

Result<std::vector<RecordBatchView>> split_record_batches(std::span<const std::uint8_t> records) {
  std::vector<RecordBatchView> batches;
  std::size_t position = 0;
  while (position < records.size()) {
    const auto rest = records.subspan(position);
    Result<RecordBatchHeader> header = parse_record_batch_header(rest);
    if (!header) return header.error();
    if (header->batch_length < static_cast<std::int32_t>(kBatchHeaderSize - kBatchLogOverhead) ||
        header->size_bytes() > rest.size()) {
      return ErrorCode::kCorruptMessage;
    }
    const auto batch = rest.first(header->size_bytes());
    if (compute_batch_crc(batch) != header->crc) return ErrorCode::kCorruptMessage;
    if (header->record_count <= 0 || header->last_offset_delta < 0 ||
        static_cast<std::int64_t>(header->record_count) !=
            static_cast<std::int64_t>(header->last_offset_delta) + 1) {
      return ErrorCode::kInvalidRecord;
    }
    if ((header->attributes & 0x07) > static_cast<int>(Compression::kZstd)) {
      return ErrorCode::kUnsupportedCompressionType;
    }
    batches.push_back(RecordBatchView{*header, batch});
    position += batch.size();
  }
  return batches;
}

std::uint32_t compute_batch_crc(std::span<const std::uint8_t> batch) {
  if (batch.size() < kBatchAttributesOffset) return 0;
  return crc32c(batch.subspan(kBatchAttributesOffset));
}

void write_base_offset(std::span<std::uint8_t> batch, std::int64_t base_offset) {
  store_big_endian(batch.subspan(kBatchBaseOffsetOffset, 8),
                   static_cast<std::uint64_t>(base_offset), 8);
}

void write_partition_leader_epoch(std::span<std::uint8_t> batch, std::int32_t epoch) {
  store_big_endian(batch.subspan(kBatchPartitionLeaderEpochOffset, 4),
                   static_cast<std::uint32_t>(epoch), 4);
}

void write_max_timestamp(std::span<std::uint8_t> batch, std::int64_t max_timestamp) {
  store_big_endian(batch.subspan(kBatchMaxTimestampOffset, 8),
                   static_cast<std::uint64_t>(max_timestamp), 8);
  store_big_endian(batch.subspan(kBatchCrcOffset, 4), compute_batch_crc(batch), 4);
}

void write_log_append_time(std::span<std::uint8_t> batch, std::int64_t now_ms) {
  batch[kBatchAttributesOffset + 1] |= 0x08;  // the attributes' low byte (big-endian int16)
  write_max_timestamp(batch, now_ms);
}

}  // namespace kgroups::protocol
