// SPDX-License-Identifier: Apache-2.0

#include "protocol/record_batch_builder.h"

#include <algorithm>

#include "protocol/record_batch.h"
#include "protocol/wire_writer.h"

namespace kgroups::protocol {
namespace {

void write_varint_bytes(WireWriter& writer, std::optional<ByteView> bytes) {
  if (!bytes) {
    writer.write_varint(-1);
    return;
  }
  writer.write_varint(static_cast<std::int32_t>(bytes->size()));
  writer.write_raw(*bytes);
}

}  // namespace

void RecordBatchBuilder::set_producer(std::int64_t producer_id, std::int16_t producer_epoch,
                                      std::int32_t base_sequence) {
  producer_id_ = producer_id;
  producer_epoch_ = producer_epoch;
  base_sequence_ = base_sequence;
}

void RecordBatchBuilder::add(std::optional<ByteView> key, std::optional<ByteView> value,
                             std::int64_t timestamp_ms, std::span<const RecordHeader> headers) {
  if (record_count_ == 0) {
    base_timestamp_ = timestamp_ms;
    max_timestamp_ = timestamp_ms;
  }
  max_timestamp_ = std::max(max_timestamp_, timestamp_ms);
  std::vector<std::uint8_t> body;
  WireWriter writer(body);
  writer.write_int8(0);  // attributes
  writer.write_varlong(timestamp_ms - base_timestamp_);
  writer.write_varint(record_count_);  // offset delta
  write_varint_bytes(writer, key);
  write_varint_bytes(writer, value);
  writer.write_varint(static_cast<std::int32_t>(headers.size()));
  for (const RecordHeader& header : headers) {
    write_varint_bytes(writer, ByteView::of(header.key));
    write_varint_bytes(writer, header.value);
  }
  WireWriter out(records_);
  out.write_varint(static_cast<std::int32_t>(body.size()));
  out.write_raw(body);
  ++record_count_;
}

void RecordBatchBuilder::add_encoded(std::span<const std::uint8_t> record) {
  records_.insert(records_.end(), record.begin(), record.end());
  ++record_count_;
}

void RecordBatchBuilder::build(std::vector<std::uint8_t>& out) const {
  write_batch(attributes_, records_, out);
}

void RecordBatchBuilder::build_compressed(Compression codec,
                                          std::span<const std::uint8_t> compressed,
                                          std::vector<std::uint8_t>& out) const {
  const auto attributes =
      static_cast<std::int16_t>((attributes_ & ~0x07) | static_cast<std::int16_t>(codec));
  write_batch(attributes, compressed, out);
}

void RecordBatchBuilder::write_batch(std::int16_t attributes, std::span<const std::uint8_t> records,
                                     std::vector<std::uint8_t>& out) const {
  const std::size_t start = out.size();
  WireWriter writer(out);
  writer.write_int64(0);  // base offset
  writer.write_int32(
      static_cast<std::int32_t>(kBatchHeaderSize - kBatchLogOverhead + records.size()));
  writer.write_int32(-1);  // partition leader epoch
  writer.write_int8(2);    // magic
  writer.write_uint32(0);  // CRC, patched below
  writer.write_int16(attributes);
  writer.write_int32(record_count_ > 0 ? record_count_ - 1 : 0);  // last offset delta
  writer.write_int64(base_timestamp_);
  writer.write_int64(max_timestamp_);
  writer.write_int64(producer_id_);
  writer.write_int16(producer_epoch_);
  writer.write_int32(base_sequence_);
  writer.write_int32(record_count_);
  writer.write_raw(records);
  const std::uint32_t crc = compute_batch_crc(std::span(out).subspan(start));
  writer.patch_int32(start + kBatchCrcOffset, static_cast<std::int32_t>(crc));
}

std::vector<std::uint8_t> RecordBatchBuilder::build() const {
  std::vector<std::uint8_t> out;
  build(out);
  return out;
}

}  // namespace kgroups::protocol
