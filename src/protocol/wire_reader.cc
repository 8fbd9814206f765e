// SPDX-License-Identifier: Apache-2.0

#include "protocol/wire_reader.h"

namespace kgroups::protocol {
namespace {

std::string_view as_chars(ByteView bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

}  // namespace

ByteView WireReader::read_raw(std::size_t count) {
  if (!ok_ || remaining() < count) {
    ok_ = false;
    return {};
  }
  ByteView out = bytes_.subspan(position_, count);
  position_ += count;
  return out;
}

std::string_view WireReader::read_string() {
  const std::int16_t length = read_int16();
  if (length == -1) return {};
  if (length < 0) {
    ok_ = false;
    return {};
  }
  return as_chars(read_raw(static_cast<std::size_t>(length)));
}

std::optional<std::string_view> WireReader::read_nullable_string() {
  const std::int16_t length = read_int16();
  if (!ok_) return std::string_view{};
  if (length == -1) return std::nullopt;
  if (length < 0) {
    ok_ = false;
    return std::string_view{};
  }
  return as_chars(read_raw(static_cast<std::size_t>(length)));
}

ByteView WireReader::read_bytes() {
  const std::int32_t length = read_int32();
  if (length == -1) return {};
  if (length < 0) {
    ok_ = false;
    return {};
  }
  return read_raw(static_cast<std::size_t>(length));
}

std::optional<ByteView> WireReader::read_nullable_bytes() {
  const std::int32_t length = read_int32();
  if (!ok_) return ByteView{};
  if (length == -1) return std::nullopt;
  if (length < 0) {
    ok_ = false;
    return ByteView{};
  }
  return read_raw(static_cast<std::size_t>(length));
}

std::int32_t WireReader::read_array_length(std::size_t min_element_bytes) {
  const std::int32_t count = read_int32();
  if (!ok_) return 0;
  if (count == -1) return -1;
  if (count < 0 || static_cast<std::size_t>(count) * min_element_bytes > remaining()) {
    ok_ = false;
    return 0;
  }
  return count;
}

std::uint32_t WireReader::read_unsigned_varint() {
  std::uint32_t value = 0;
  for (int shift = 0; shift < 35; shift += 7) {
    const auto byte = read_big_endian<std::uint8_t>();
    if (!ok_) return 0;
    if (shift == 28 && (byte & 0xF0) != 0) break;  // more than 32 bits
    value |= static_cast<std::uint32_t>(byte & 0x7F) << shift;
    if ((byte & 0x80) == 0) return value;
  }
  ok_ = false;
  return 0;
}

std::int32_t WireReader::read_varint() {
  const std::uint32_t raw = read_unsigned_varint();
  return static_cast<std::int32_t>((raw >> 1) ^ (~(raw & 1) + 1));
}

std::int64_t WireReader::read_varlong() {
  std::uint64_t raw = 0;
  for (int shift = 0; shift < 70; shift += 7) {
    const auto byte = read_big_endian<std::uint8_t>();
    if (!ok_) return 0;
    if (shift == 63 && (byte & 0xFE) != 0) break;  // more than 64 bits
    raw |= static_cast<std::uint64_t>(byte & 0x7F) << shift;
    if ((byte & 0x80) == 0) return static_cast<std::int64_t>((raw >> 1) ^ (~(raw & 1) + 1));
  }
  ok_ = false;
  return 0;
}

std::optional<std::string_view> WireReader::read_compact_nullable_string() {
  const std::uint32_t length_plus_one = read_unsigned_varint();
  if (!ok_) return std::string_view{};
  if (length_plus_one == 0) return std::nullopt;
  return as_chars(read_raw(length_plus_one - 1));
}

std::optional<ByteView> WireReader::read_compact_nullable_bytes() {
  const std::uint32_t length_plus_one = read_unsigned_varint();
  if (!ok_) return ByteView{};
  if (length_plus_one == 0) return std::nullopt;
  return read_raw(length_plus_one - 1);
}

Uuid WireReader::read_uuid() {
  Uuid id{};
  const ByteView bytes = read_raw(id.size());
  if (ok_) std::copy(bytes.begin(), bytes.end(), id.begin());
  return id;
}

std::string_view WireReader::read_compact_string() {
  return read_compact_nullable_string().value_or(std::string_view{});
}

std::int32_t WireReader::read_compact_array_length(std::size_t min_element_bytes) {
  const std::uint32_t count_plus_one = read_unsigned_varint();
  if (!ok_) return 0;
  if (count_plus_one == 0) return -1;
  const std::size_t count = count_plus_one - 1;
  if (count * min_element_bytes > remaining()) {
    ok_ = false;
    return 0;
  }
  return static_cast<std::int32_t>(count);
}

void WireReader::skip_tagged_fields() {
  const std::uint32_t count = read_unsigned_varint();
  // Each field takes at least two bytes (tag and size), which bounds the loop.
  if (static_cast<std::size_t>(count) * 2 > remaining()) {
    ok_ = false;
    return;
  }
  for (std::uint32_t i = 0; i < count && ok_; ++i) {
    read_unsigned_varint();  // tag
    read_raw(read_unsigned_varint());
  }
}

}  // namespace kgroups::protocol
