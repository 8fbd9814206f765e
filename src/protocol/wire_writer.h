// SPDX-License-Identifier: Apache-2.0
//
// WireWriter: appends Kafka's primitive types, big-endian, to a caller-owned byte vector, so
// a connection can reuse one buffer for every response. Writing never throws (the vector
// grows). Every length is checked against its field's width: a string longer than an int16
// can say, bytes or an array longer than an int32 can say, marks the writer failed (ok()
// turns false, sticky) and writes a zero length instead, so the caller must discard the
// output rather than send a frame whose lengths wrap.
// Splicing (splice_into()): large byte ranges that outlive the writer (stored record batches)
// can be left out of the vector and listed instead, each with the position in the vector
// where its bytes belong, so a gathered write sends them without copying them; the encoding
// is otherwise the same.
// The vector must outlive the writer. Not thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "protocol/byte_view.h"
#include "protocol/uuid.h"

namespace kgroups::protocol {

// Bytes left out of a WireWriter's vector: they belong before out[position].
struct SplicedRange {
  std::size_t position = 0;
  ByteView bytes;
};

class WireWriter {
 public:
  explicit WireWriter(std::vector<std::uint8_t>& out) : out_(out) {}

  void write_int8(std::int8_t value) { out_.push_back(static_cast<std::uint8_t>(value)); }
  void write_int16(std::int16_t value) { write_big_endian(static_cast<std::uint16_t>(value)); }
  void write_int32(std::int32_t value) { write_big_endian(static_cast<std::uint32_t>(value)); }
  void write_int64(std::int64_t value) { write_big_endian(static_cast<std::uint64_t>(value)); }
  void write_uint32(std::uint32_t value) { write_big_endian(value); }
  void write_bool(bool value) { out_.push_back(value ? 1 : 0); }

  // int16 length + characters.
  void write_string(std::string_view text);
  // As write_string; std::nullopt is written as length -1.
  void write_nullable_string(std::optional<std::string_view> text);
  // int32 length + bytes.
  void write_bytes(std::span<const std::uint8_t> bytes);
  // As write_bytes; std::nullopt is written as length -1.
  void write_nullable_bytes(std::optional<ByteView> bytes);
  // int32 array count (-1 for a null array).
  void write_array_length(std::int32_t count) { write_int32(count); }

  // Writes the count, then `write_one(WireWriter&, const T&)` per element.
  template <class T, class WriteOne>
  void write_array(const std::vector<T>& elements, WriteOne&& write_one) {
    write_array_length(checked_length<std::int32_t>(elements.size()));
    for (const T& element : elements) write_one(*this, element);
  }
  // As write_array; std::nullopt is written as a null array (-1).
  template <class T, class WriteOne>
  void write_nullable_array(const std::optional<std::vector<T>>& elements, WriteOne&& write_one) {
    if (!elements) {
      write_array_length(-1);
      return;
    }
    write_array(*elements, write_one);
  }

  // Flexible-version and record-batch encodings.
  void write_unsigned_varint(std::uint32_t value);
  void write_varint(std::int32_t value);
  void write_varlong(std::int64_t value);
  void write_compact_string(std::string_view text);
  void write_compact_nullable_string(std::optional<std::string_view> text);
  void write_compact_array_length(std::int32_t count);  // -1 for null
  // Compact bytes: unsigned varint length+1, then the bytes; std::nullopt is written as 0.
  void write_compact_bytes(std::span<const std::uint8_t> bytes);
  void write_compact_nullable_bytes(std::optional<ByteView> bytes);
  // An array count of `size` elements, compact in flexible versions, checked against int32.
  void write_count(std::size_t size, bool flexible) {
    const auto count = checked_length<std::int32_t>(size);
    if (flexible) {
      write_compact_array_length(count);
    } else {
      write_array_length(count);
    }
  }
  // A 16-byte UUID (topic ids).
  void write_uuid(const Uuid& id) { out_.insert(out_.end(), id.begin(), id.end()); }
  // An empty tagged-field section (a zero count).
  void write_empty_tagged_fields() { out_.push_back(0); }

  // Appends bytes as they are, with no length prefix.
  void write_raw(std::span<const std::uint8_t> bytes) {
    out_.insert(out_.end(), bytes.begin(), bytes.end());
  }

  // From now on write_spliceable() lists its ranges in `ranges` (nullptr: copies them again).
  // `ranges` must outlive the writer's use of it.
  void splice_into(std::vector<SplicedRange>* ranges) { spliced_ = ranges; }
  // Appends `bytes` as they are, like write_raw(), or, when splicing, lists them in the
  // splice list at the current position (joined to the previous range when they follow it
  // in memory at the same position). The bytes must then stay valid until they are sent.
  void write_spliceable(ByteView bytes) {
    if (spliced_ == nullptr) {
      write_raw(bytes);
      return;
    }
    spliced_bytes_ += bytes.size();
    if (!spliced_->empty()) {
      SplicedRange& last = spliced_->back();
      if (last.position == out_.size() && last.bytes.data() + last.bytes.size() == bytes.data()) {
        last.bytes = ByteView(last.bytes.data(), last.bytes.size() + bytes.size());
        return;
      }
    }
    spliced_->push_back({.position = out_.size(), .bytes = bytes});
  }
  // Bytes this writer listed in the splice list rather than appended.
  [[nodiscard]] std::size_t spliced_bytes() const { return spliced_bytes_; }

  // Appends a placeholder int32 and returns its position, for a size prefix that is only
  // known later; patch_int32(position, value) fills it in.
  std::size_t reserve_int32() {
    const std::size_t position = out_.size();
    out_.resize(position + 4);
    return position;
  }
  void patch_int32(std::size_t position, std::int32_t value);

  // Bytes in the vector (including anything it held before this writer).
  [[nodiscard]] std::size_t size() const { return out_.size(); }

  // False once a length did not fit its field; the output is then not a valid message.
  [[nodiscard]] bool ok() const { return ok_; }
  // Marks the output invalid (a nested writer failed).
  void fail() { ok_ = false; }

 private:
  // `length` as the wire type T, or 0 with the writer failed when it does not fit.
  template <class T>
  T checked_length(std::size_t length) {
    if (length > static_cast<std::size_t>(std::numeric_limits<T>::max())) {
      ok_ = false;
      return 0;
    }
    return static_cast<T>(length);
  }

  template <class U>
  void write_big_endian(U value) {
    std::uint8_t bytes[sizeof(U)];
    for (std::size_t i = 0; i < sizeof(U); ++i) {
      bytes[i] = static_cast<std::uint8_t>(value >> (8 * (sizeof(U) - 1 - i)));
    }
    out_.insert(out_.end(), bytes, bytes + sizeof(U));
  }

  std::vector<std::uint8_t>& out_;
  std::vector<SplicedRange>* spliced_ = nullptr;  // nullptr: write_spliceable() copies
  std::size_t spliced_bytes_ = 0;
  bool ok_ = true;
};

}  // namespace kgroups::protocol
