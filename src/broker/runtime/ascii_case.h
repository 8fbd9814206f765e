// SPDX-License-Identifier: Apache-2.0
//
// ascii_lowercase: a protocol token (an HTTP header name or value, a group state in a
// ListGroups filter) in lower case, for comparisons the protocols define as case-insensitive.
// ASCII letters only, as those protocols do; every other byte is kept as it is.
// Thread-safe: a pure function.
#pragma once

#include <string>
#include <string_view>

namespace kgroups::broker {

inline std::string ascii_lowercase(std::string_view text) {
  std::string lower(text);
  for (char& c : lower) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return lower;
}

}  // namespace kgroups::broker
