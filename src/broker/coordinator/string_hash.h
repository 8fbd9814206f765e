// SPDX-License-Identifier: Apache-2.0
//
// StringHash: a transparent hash for unordered containers keyed by std::string, so a
// lookup by std::string_view neither allocates nor copies. Use it with
// std::equal_to<>. Thread-safe: stateless.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace kgroups::broker {

struct StringHash {
  using is_transparent = void;

  std::size_t operator()(std::string_view text) const noexcept {
    return std::hash<std::string_view>{}(text);
  }
  std::size_t operator()(const std::string& text) const noexcept {
    return std::hash<std::string_view>{}(text);
  }
};

}  // namespace kgroups::broker
