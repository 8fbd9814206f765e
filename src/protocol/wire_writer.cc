// SPDX-License-Identifier: Apache-2.0

#include "protocol/wire_writer.h"

namespace kgroups::protocol {
namespace {

std::span<const std::uint8_t> as_bytes(std::string_view text) {
  return {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()};
}

}  // namespace

void WireWriter::write_string(std::string_view text) {
  const auto length = checked_length<std::int16_t>(text.size());
  write_int16(length);
  if (ok_) write_raw(as_bytes(text));
}

void WireWriter::write_nullable_string(std::optional<std::string_view> text) {
  if (!text) {
    write_int16(-1);
    return;
  }
  write_string(*text);
}

void WireWriter::write_bytes(std::span<const std::uint8_t> bytes) {
  const auto length = checked_length<std::int32_t>(bytes.size());
  write_int32(length);
  if (ok_) write_raw(bytes);
}

void WireWriter::write_nullable_bytes(std::optional<ByteView> bytes) {
  if (!bytes) {
    write_int32(-1);
    return;
  }
  write_bytes(*bytes);
}

void WireWriter::write_unsigned_varint(std::uint32_t value) {
  while (value >= 0x80) {
    out_.push_back(static_cast<std::uint8_t>(value | 0x80));
    value >>= 7;
  }
  out_.push_back(static_cast<std::uint8_t>(value));
}

void WireWriter::write_varint(std::int32_t value) {
  const auto raw = static_cast<std::uint32_t>(value);
  write_unsigned_varint((raw << 1) ^ static_cast<std::uint32_t>(value >> 31));
}

void WireWriter::write_varlong(std::int64_t value) {
  const auto raw = static_cast<std::uint64_t>(value);
  std::uint64_t zigzag = (raw << 1) ^ static_cast<std::uint64_t>(value >> 63);
  while (zigzag >= 0x80) {
    out_.push_back(static_cast<std::uint8_t>(zigzag | 0x80));
    zigzag >>= 7;
  }
  out_.push_back(static_cast<std::uint8_t>(zigzag));
}

void WireWriter::write_compact_string(std::string_view text) {
  // The varint holds length + 1, and lengths are int32 on the wire.
  const auto length = checked_length<std::int32_t>(text.size());
  write_unsigned_varint(static_cast<std::uint32_t>(length) + 1);
  if (ok_) write_raw(as_bytes(text));
}

void WireWriter::write_compact_nullable_string(std::optional<std::string_view> text) {
  if (!text) {
    write_unsigned_varint(0);
    return;
  }
  write_compact_string(*text);
}

void WireWriter::write_compact_bytes(std::span<const std::uint8_t> bytes) {
  const auto length = checked_length<std::int32_t>(bytes.size());
  write_unsigned_varint(static_cast<std::uint32_t>(length) + 1);
  if (ok_) write_raw(bytes);
}

void WireWriter::write_compact_nullable_bytes(std::optional<ByteView> bytes) {
  if (!bytes) {
    write_unsigned_varint(0);
    return;
  }
  write_compact_bytes(*bytes);
}

void WireWriter::write_compact_array_length(std::int32_t count) {
  write_unsigned_varint(static_cast<std::uint32_t>(count + 1));
}

void WireWriter::patch_int32(std::size_t position, std::int32_t value) {
  const auto raw = static_cast<std::uint32_t>(value);
  out_[position] = static_cast<std::uint8_t>(raw >> 24);
  out_[position + 1] = static_cast<std::uint8_t>(raw >> 16);
  out_[position + 2] = static_cast<std::uint8_t>(raw >> 8);
  out_[position + 3] = static_cast<std::uint8_t>(raw);
}

}  // namespace kgroups::protocol
