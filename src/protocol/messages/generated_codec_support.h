// SPDX-License-Identifier: Apache-2.0
//
// What the generated message codecs (codegen/generate_messages.py) share: conversions between
// the views a WireReader returns and the owned fields of response structs, the gathered
// records field, and tagged-field framing. Private to the generated .cc files.
// Thread-safe: pure functions.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/byte_view.h"
#include "protocol/wire_reader.h"
#include "protocol/wire_writer.h"

namespace kgroups::protocol {

// A claimed element count is checked against the bytes left, but it is not yet elements:
// reserve a bounded amount so a lying frame cannot make the decoder allocate far beyond it.
template <class T>
void reserve_elements(std::vector<T>& elements, std::int32_t count) {
  constexpr std::int32_t kMaxReservedElements = 1024;
  if (count > 0) elements.reserve(static_cast<std::size_t>(std::min(count, kMaxReservedElements)));
}

inline std::vector<std::uint8_t> to_owned_bytes(ByteView bytes) {
  return {bytes.begin(), bytes.end()};
}

inline std::optional<std::vector<std::uint8_t>> to_owned_bytes(std::optional<ByteView> bytes) {
  if (!bytes) return std::nullopt;
  return to_owned_bytes(*bytes);
}

inline std::optional<std::string> to_owned_string(std::optional<std::string_view> text) {
  if (!text) return std::nullopt;
  return std::string(*text);
}

inline std::optional<std::string_view> optional_view(const std::optional<std::string>& text) {
  if (!text) return std::nullopt;
  return std::string_view(*text);
}

inline std::optional<ByteView> optional_bytes(
    const std::optional<std::vector<std::uint8_t>>& bytes) {
  if (!bytes) return std::nullopt;
  return ByteView(*bytes);
}

// A decoded records field as the one view it is (none when null).
inline std::vector<ByteView> gathered(std::optional<ByteView> records) {
  if (!records || records->empty()) return {};
  return {*records};
}

// Writes gathered byte ranges as one (non-null) records field: their total length, then each
// range back to back, so stored batches go out without first being joined; a splicing writer
// (WireWriter::splice_into()) lists the ranges instead of copying them.
inline void write_gathered(WireWriter& writer, const std::vector<ByteView>& ranges, bool flexible) {
  std::size_t total = 0;
  for (const ByteView range : ranges) total += range.size();
  if (flexible) {
    writer.write_count(total, true);  // a compact length is written like a compact count
  } else {
    writer.write_count(total, false);
  }
  for (const ByteView range : ranges) writer.write_spliceable(range);
}

// Writes the size and bytes of one tagged field that `field_writer` wrote into `field_bytes`
// (the tag is already written).
inline void write_tagged_field(WireWriter& writer, const WireWriter& field_writer,
                               const std::vector<std::uint8_t>& field_bytes) {
  if (!field_writer.ok()) writer.fail();
  writer.write_unsigned_varint(static_cast<std::uint32_t>(field_bytes.size()));
  writer.write_raw(field_bytes);
}

}  // namespace kgroups::protocol
