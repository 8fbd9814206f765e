// SPDX-License-Identifier: Apache-2.0
#include "broker/security/base64.h"

#include <array>
#include <cstdint>

namespace kgroups::broker {
namespace {

constexpr std::string_view kStandardAlphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr std::string_view kUrlAlphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
constexpr std::uint8_t kNotInAlphabet = 0xFF;

using DecodeTable = std::array<std::uint8_t, 256>;

constexpr DecodeTable decode_table(std::string_view alphabet) {
  DecodeTable table{};
  table.fill(kNotInAlphabet);
  for (std::size_t i = 0; i < alphabet.size(); ++i) {
    table[static_cast<unsigned char>(alphabet[i])] = static_cast<std::uint8_t>(i);
  }
  return table;
}

constexpr DecodeTable kStandardTable = decode_table(kStandardAlphabet);
constexpr DecodeTable kUrlTable = decode_table(kUrlAlphabet);

// Decodes `text` (no padding left in it) with `table`; nullopt on a foreign character, a
// length no encoding produces, or nonzero bits left over in the last character.
std::optional<std::string> decode_unpadded(std::string_view text, const DecodeTable& table) {
  if (text.size() % 4 == 1) return std::nullopt;
  std::string out;
  out.reserve(text.size() * 3 / 4);
  std::uint32_t bits = 0;
  int bit_count = 0;
  for (const char c : text) {
    const std::uint8_t value = table[static_cast<unsigned char>(c)];
    if (value == kNotInAlphabet) return std::nullopt;
    bits = (bits << 6) | value;
    bit_count += 6;
    if (bit_count >= 8) {
      bit_count -= 8;
      out.push_back(static_cast<char>((bits >> bit_count) & 0xFF));
    }
  }
  if ((bits & ((1u << bit_count) - 1)) != 0) return std::nullopt;
  return out;
}

}  // namespace

std::string base64_encode(std::span<const unsigned char> bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const std::uint32_t group = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    out.push_back(kStandardAlphabet[(group >> 18) & 63]);
    out.push_back(kStandardAlphabet[(group >> 12) & 63]);
    out.push_back(kStandardAlphabet[(group >> 6) & 63]);
    out.push_back(kStandardAlphabet[group & 63]);
  }
  const std::size_t left = bytes.size() - i;
  if (left == 0) return out;
  const std::uint32_t group = (bytes[i] << 16) | (left == 2 ? bytes[i + 1] << 8 : 0);
  out.push_back(kStandardAlphabet[(group >> 18) & 63]);
  out.push_back(kStandardAlphabet[(group >> 12) & 63]);
  out.push_back(left == 2 ? kStandardAlphabet[(group >> 6) & 63] : '=');
  out.push_back('=');
  return out;
}

std::optional<std::string> base64_decode(std::string_view text) {
  if (text.size() % 4 != 0) return std::nullopt;
  std::size_t padding = 0;
  while (padding < 2 && padding < text.size() && text[text.size() - 1 - padding] == '=') {
    ++padding;
  }
  return decode_unpadded(text.substr(0, text.size() - padding), kStandardTable);
}

std::optional<std::string> base64url_decode(std::string_view text) {
  std::size_t padding = 0;
  while (padding < 2 && padding < text.size() && text[text.size() - 1 - padding] == '=') {
    ++padding;
  }
  if (padding > 0 && text.size() % 4 != 0) return std::nullopt;
  return decode_unpadded(text.substr(0, text.size() - padding), kUrlTable);
}

}  // namespace kgroups::broker
