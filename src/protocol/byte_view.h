// SPDX-License-Identifier: Apache-2.0
//
// ByteView: a std::span<const std::uint8_t> that compares by content, so message structs
// holding byte fields (records, group metadata, assignments) can default operator==.
// It views memory it does not own: the bytes must outlive it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <string_view>

namespace kgroups::protocol {

class ByteView : public std::span<const std::uint8_t> {
 public:
  using std::span<const std::uint8_t>::span;
  ByteView() = default;
  ByteView(std::span<const std::uint8_t> bytes)  // implicit: any byte span is a ByteView
      : std::span<const std::uint8_t>(bytes) {}

  // Views the characters of `text` as bytes (for tests and clients building requests).
  static ByteView of(std::string_view text) {
    return {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()};
  }

  friend bool operator==(ByteView a, ByteView b) { return std::ranges::equal(a, b); }
};

}  // namespace kgroups::protocol
