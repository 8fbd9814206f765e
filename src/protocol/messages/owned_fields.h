// SPDX-License-Identifier: Apache-2.0
//
// Conversions between the views a WireReader returns and the owned fields of response
// structs. Private to the message codecs. Thread-safe: pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/byte_view.h"
#include "protocol/wire_reader.h"
#include "protocol/wire_writer.h"

namespace kgroups::protocol {

inline std::optional<std::string> to_owned(std::optional<std::string_view> text) {
  if (!text) return std::nullopt;
  return std::string(*text);
}

inline std::optional<std::string_view> to_view(const std::optional<std::string>& text) {
  if (!text) return std::nullopt;
  return std::string_view(*text);
}

inline std::vector<std::uint8_t> to_owned(ByteView bytes) { return {bytes.begin(), bytes.end()}; }

inline std::int32_t read_int32_element(WireReader& reader) { return reader.read_int32(); }

inline void write_int32_element(WireWriter& writer, std::int32_t value) {
  writer.write_int32(value);
}

}  // namespace kgroups::protocol
