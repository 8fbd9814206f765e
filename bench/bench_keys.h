// SPDX-License-Identifier: Apache-2.0
//
// The benchmarks' inputs: distinct 16-byte keys (so records spread over the
// partitions) and fixed values of a given size.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

namespace kgroups::bench {

inline constexpr int kKeyCount = 4096;  // a power of two: index with & (kKeyCount - 1)

inline std::vector<std::string> make_keys() {
  std::vector<std::string> keys;
  keys.reserve(kKeyCount);
  char text[17];
  for (int i = 0; i < kKeyCount; ++i) {
    std::snprintf(text, sizeof text, "key-%012d", i);
    keys.emplace_back(text, 16);
  }
  return keys;
}

}  // namespace kgroups::bench
