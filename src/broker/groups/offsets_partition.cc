// SPDX-License-Identifier: Apache-2.0
#include "broker/groups/offsets_partition.h"

#include <limits>

namespace kgroups::broker {
namespace {

constexpr char32_t kReplacement = 0xFFFD;

// Decodes the code point at `utf8[at]` and moves `at` past it; a malformed sequence gives
// U+FFFD and moves one byte.
char32_t next_code_point(std::string_view utf8, std::size_t& at) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(utf8[i]); };
  const unsigned char lead = byte(at);
  std::size_t length = 0;
  char32_t point = 0;
  char32_t minimum = 0;
  if (lead < 0x80) {
    ++at;
    return lead;
  } else if ((lead & 0xE0) == 0xC0) {
    length = 2, point = lead & 0x1F, minimum = 0x80;
  } else if ((lead & 0xF0) == 0xE0) {
    length = 3, point = lead & 0x0F, minimum = 0x800;
  } else if ((lead & 0xF8) == 0xF0) {
    length = 4, point = lead & 0x07, minimum = 0x10000;
  } else {
    ++at;
    return kReplacement;
  }
  if (at + length > utf8.size()) {
    ++at;
    return kReplacement;
  }
  for (std::size_t i = 1; i < length; ++i) {
    if ((byte(at + i) & 0xC0) != 0x80) {
      ++at;
      return kReplacement;
    }
    point = (point << 6) | (byte(at + i) & 0x3F);
  }
  if (point < minimum || point > 0x10FFFF || (point >= 0xD800 && point <= 0xDFFF)) {
    ++at;
    return kReplacement;
  }
  at += length;
  return point;
}

}  // namespace

std::int32_t java_string_hash(std::string_view utf8) {
  std::uint32_t hash = 0;  // unsigned: Java's int arithmetic wraps
  const auto add = [&hash](std::uint32_t unit) { hash = 31 * hash + unit; };
  for (std::size_t at = 0; at < utf8.size();) {
    const char32_t point = next_code_point(utf8, at);
    if (point >= 0x10000) {  // a surrogate pair in UTF-16
      const char32_t above = point - 0x10000;
      add(0xD800 + (above >> 10));
      add(0xDC00 + (above & 0x3FF));
    } else {
      add(point);
    }
  }
  return static_cast<std::int32_t>(hash);
}

std::int32_t offsets_partition_for(std::string_view group_id, std::int32_t partitions) {
  const std::int32_t hash = java_string_hash(group_id);
  const std::int32_t abs =
      hash == std::numeric_limits<std::int32_t>::min() ? 0 : (hash < 0 ? -hash : hash);
  return abs % partitions;
}

}  // namespace kgroups::broker
