// SPDX-License-Identifier: Apache-2.0

#include "protocol/batch_records.h"

#include "protocol/record_batch.h"
#include "protocol/wire_reader.h"

namespace kgroups::protocol {
namespace {

// A varint-length byte string: -1 is null, other negatives fail the reader.
std::optional<ByteView> read_varint_bytes(WireReader& reader) {
  const std::int32_t length = reader.read_varint();
  if (length == -1) return std::nullopt;
  if (length < 0) {
    reader.fail();
    return ByteView{};
  }
  return reader.read_raw(static_cast<std::size_t>(length));
}

}  // namespace

Result<std::vector<BatchRecord>> decode_batch_records(std::span<const std::uint8_t> batch) {
  Result<RecordBatchHeader> header = parse_record_batch_header(batch);
  if (!header) return header.error();
  if (header->batch_length < static_cast<std::int32_t>(kBatchHeaderSize - kBatchLogOverhead) ||
      header->size_bytes() > batch.size() || header->record_count < 0) {
    return ErrorCode::kCorruptMessage;
  }
  if (header->compression() != Compression::kNone) return ErrorCode::kUnsupportedCompressionType;
  WireReader reader(batch.subspan(kBatchHeaderSize, header->size_bytes() - kBatchHeaderSize));
  std::vector<BatchRecord> records;
  for (std::int32_t i = 0; i < header->record_count && reader.ok(); ++i) {
    const std::int32_t length = reader.read_varint();
    if (length < 0) return ErrorCode::kCorruptMessage;
    WireReader record_reader(reader.read_raw(static_cast<std::size_t>(length)));
    if (!reader.ok()) break;
    BatchRecord record;
    record.attributes = record_reader.read_int8();
    record.timestamp_delta = record_reader.read_varlong();
    record.offset_delta = record_reader.read_varint();
    record.key = read_varint_bytes(record_reader);
    record.value = read_varint_bytes(record_reader);
    const std::int32_t header_count = record_reader.read_varint();
    if (header_count < 0 || static_cast<std::size_t>(header_count) > record_reader.remaining()) {
      return ErrorCode::kCorruptMessage;
    }
    for (std::int32_t h = 0; h < header_count && record_reader.ok(); ++h) {
      RecordHeader field;
      const std::optional<ByteView> key = read_varint_bytes(record_reader);
      if (!key) return ErrorCode::kCorruptMessage;
      field.key = {reinterpret_cast<const char*>(key->data()), key->size()};
      field.value = read_varint_bytes(record_reader);
      record.headers.push_back(field);
    }
    if (!record_reader.ok() || record_reader.remaining() != 0) return ErrorCode::kCorruptMessage;
    records.push_back(std::move(record));
  }
  if (!reader.ok() || reader.remaining() != 0) return ErrorCode::kCorruptMessage;
  return records;
}

}  // namespace kgroups::protocol
