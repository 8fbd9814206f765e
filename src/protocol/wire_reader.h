// SPDX-License-Identifier: Apache-2.0
//
// WireReader: bounds-checked big-endian reads of Kafka's primitive types from a byte span.
// Failure is sticky: a read past the end (or a length that cannot fit in the bytes left)
// sets the failure flag, consumes nothing and returns a zero value; every later read also
// returns zero. Decoders read a whole message, then check ok() once. It never throws and
// never reads outside the span.
// Strings and bytes returned are views into the span: they are valid while its buffer lives.
// Not thread-safe; cheap to copy (a copy is an independent cursor).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "protocol/byte_view.h"
#include "protocol/uuid.h"

namespace kgroups::protocol {

class WireReader {
 public:
  explicit WireReader(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}

  std::int8_t read_int8() { return static_cast<std::int8_t>(read_big_endian<std::uint8_t>()); }
  std::int16_t read_int16() { return static_cast<std::int16_t>(read_big_endian<std::uint16_t>()); }
  std::int32_t read_int32() { return static_cast<std::int32_t>(read_big_endian<std::uint32_t>()); }
  std::int64_t read_int64() { return static_cast<std::int64_t>(read_big_endian<std::uint64_t>()); }
  std::uint32_t read_uint32() { return read_big_endian<std::uint32_t>(); }
  // A boolean byte: any non-zero value is true.
  bool read_bool() { return read_big_endian<std::uint8_t>() != 0; }

  // An int16-length string. A null string (length -1) reads as "" because some clients send
  // null where the schema says non-nullable; any other negative length is a failure.
  std::string_view read_string();
  // An int16-length string; length -1 is null (std::nullopt).
  std::optional<std::string_view> read_nullable_string();
  // An int32-length byte string. Null (-1) reads as empty; other negative lengths fail.
  ByteView read_bytes();
  // An int32-length byte string; length -1 is null (std::nullopt).
  std::optional<ByteView> read_nullable_bytes();
  // An int32 array count: -1 means a null array and is returned as -1. A count below -1, or
  // one whose elements (at least `min_element_bytes` each) cannot fit in the bytes left,
  // fails and returns 0; so a loop over the result never runs past the frame.
  std::int32_t read_array_length(std::size_t min_element_bytes = 1);

  // Reads an array with `read_one(WireReader&) -> T` per element; null reads as empty.
  // Stops early once a read fails.
  template <class T, class ReadOne>
  std::vector<T> read_array(ReadOne&& read_one, std::size_t min_element_bytes = 1) {
    std::vector<T> out;
    read_elements(out, read_array_length(min_element_bytes), read_one);
    return out;
  }
  // As read_array, but a null array (count -1) is std::nullopt.
  template <class T, class ReadOne>
  std::optional<std::vector<T>> read_nullable_array(ReadOne&& read_one,
                                                    std::size_t min_element_bytes = 1) {
    const std::int32_t count = read_array_length(min_element_bytes);
    if (count < 0) return std::nullopt;
    std::vector<T> out;
    read_elements(out, count, read_one);
    return out;
  }

  // Unsigned LEB128 varint of at most 5 bytes (flexible versions: lengths, tag counts).
  std::uint32_t read_unsigned_varint();
  // Zig-zag varint / varlong (record fields inside a record batch).
  std::int32_t read_varint();
  std::int64_t read_varlong();
  // Compact (flexible-version) string: unsigned varint length+1; 0 is null, read as "".
  std::string_view read_compact_string();
  // Compact nullable string: unsigned varint length+1; 0 is null (std::nullopt).
  std::optional<std::string_view> read_compact_nullable_string();
  // Compact (flexible-version) bytes: unsigned varint length+1; 0 is null, read as empty.
  ByteView read_compact_bytes() { return read_compact_nullable_bytes().value_or(ByteView{}); }
  // Compact nullable bytes: unsigned varint length+1; 0 is null (std::nullopt).
  std::optional<ByteView> read_compact_nullable_bytes();
  // A 16-byte UUID (topic ids).
  Uuid read_uuid();
  // Compact array count: unsigned varint count+1; 0 (null) is returned as -1. Checked
  // against the bytes left like read_array_length.
  std::int32_t read_compact_array_length(std::size_t min_element_bytes = 1);
  // Skips a tagged-field section (KIP-482): a count, then (tag, size, bytes) per field.
  void skip_tagged_fields();

  // Consumes `count` raw bytes and returns a view of them; fails if fewer are left.
  ByteView read_raw(std::size_t count);
  // Consumes the rest of the span.
  ByteView read_rest() { return read_raw(remaining()); }

  [[nodiscard]] std::size_t remaining() const { return bytes_.size() - position_; }
  [[nodiscard]] std::size_t position() const { return position_; }
  // False once any read has failed.
  [[nodiscard]] bool ok() const { return ok_; }
  // Marks the reader failed (a decoder found an invalid value).
  void fail() { ok_ = false; }

 private:
  template <class U>
  U read_big_endian() {
    if (!ok_ || remaining() < sizeof(U)) {
      ok_ = false;
      return 0;
    }
    U value = 0;
    for (std::size_t i = 0; i < sizeof(U); ++i) {
      value = static_cast<U>((value << 8) | bytes_[position_ + i]);
    }
    position_ += sizeof(U);
    return value;
  }

  template <class T, class ReadOne>
  void read_elements(std::vector<T>& out, std::int32_t count, ReadOne& read_one) {
    if (count <= 0) return;
    // The count is checked against the bytes left, but a claimed count is not yet elements:
    // reserve a bounded amount so a lying frame cannot make us allocate far beyond its size.
    out.reserve(std::min<std::size_t>(static_cast<std::size_t>(count), kMaxReservedElements));
    for (std::int32_t i = 0; i < count && ok_; ++i) out.push_back(read_one(*this));
  }

  static constexpr std::size_t kMaxReservedElements = 1024;

  std::span<const std::uint8_t> bytes_;
  std::size_t position_ = 0;
  bool ok_ = true;
};

}  // namespace kgroups::protocol
