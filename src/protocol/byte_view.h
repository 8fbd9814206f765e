// SPDX-License-Identifier: Apache-2.0
//
// ByteView: a std::span<const std::uint8_t> that compares by content, so message structs
// holding byte fields (records, group metadata, assignments) can default operator==.
// It views memory it does not own: the bytes must outlive it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <type_traits>

namespace kgroups::protocol {

class ByteView : public std::span<const std::uint8_t> {
 public:
  ByteView() = default;
  ByteView(const std::uint8_t* data, std::size_t size)
      : std::span<const std::uint8_t>(data, size) {}
  // Implicit from anything that converts to a byte span (a span, a std::vector, an array),
  // so ByteView can stand wherever std::span<const std::uint8_t> did.
  template <class Bytes>
  requires std::is_convertible_v<const Bytes&, std::span<const std::uint8_t>> &&
      (!std::is_same_v<Bytes, ByteView>)ByteView(const Bytes& bytes)
      : std::span<const std::uint8_t>(bytes) {}

  // Views the characters of `text` as bytes (for tests and clients building requests).
  static ByteView of(std::string_view text) {
    return {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()};
  }

  friend bool operator==(ByteView a, ByteView b) { return std::ranges::equal(a, b); }
};

}  // namespace kgroups::protocol
