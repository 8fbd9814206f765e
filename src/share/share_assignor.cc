// SPDX-License-Identifier: Apache-2.0
#include "share/share_assignor.h"

#include <algorithm>
#include <cstddef>
#include <cstdlib>

namespace kgroups::share {
namespace {

// Decodes one UTF-8 code point at text[i] (advancing i); invalid bytes stand for themselves.
std::uint32_t next_code_point(std::string_view text, std::size_t& i) {
  const auto lead = static_cast<unsigned char>(text[i++]);
  int extra = 0;
  std::uint32_t point = lead;
  if ((lead & 0xE0U) == 0xC0U) {
    extra = 1;
    point = lead & 0x1FU;
  } else if ((lead & 0xF0U) == 0xE0U) {
    extra = 2;
    point = lead & 0x0FU;
  } else if ((lead & 0xF8U) == 0xF0U) {
    extra = 3;
    point = lead & 0x07U;
  }
  for (int k = 0; k < extra; ++k) {
    if (i >= text.size() || (static_cast<unsigned char>(text[i]) & 0xC0U) != 0x80U) return lead;
    point = (point << 6U) | (static_cast<unsigned char>(text[i++]) & 0x3FU);
  }
  return point;
}

std::vector<std::vector<int>> holders_by_partition(const ShareAssignmentInput& input) {
  std::vector<std::vector<int>> holders(input.topic_of.size());
  for (std::size_t m = 0; m < input.current.size(); ++m) {
    for (const int partition : input.current[m]) {
      if (partition >= 0 && static_cast<std::size_t>(partition) < holders.size()) {
        holders[static_cast<std::size_t>(partition)].push_back(static_cast<int>(m));
      }
    }
  }
  return holders;
}

bool subscribes(const std::vector<int>& subscribed, int partition) {
  return std::binary_search(subscribed.begin(), subscribed.end(), partition);
}

bool subscribes_to_topic(const ShareAssignmentInput& input, std::size_t member, int topic) {
  return std::any_of(input.subscribed[member].begin(), input.subscribed[member].end(),
                     [&](int p) { return input.topic_of[static_cast<std::size_t>(p)] == topic; });
}

}  // namespace

std::int32_t java_string_hash(std::string_view text) noexcept {
  std::uint32_t hash = 0;
  auto mix = [&hash](std::uint32_t unit) { hash = hash * 31U + unit; };
  std::size_t i = 0;
  while (i < text.size()) {
    const std::uint32_t point = next_code_point(text, i);
    if (point >= 0x10000U) {
      const std::uint32_t v = point - 0x10000U;
      mix(0xD800U + (v >> 10U));
      mix(0xDC00U + (v & 0x3FFU));
    } else {
      mix(point);
    }
  }
  return static_cast<std::int32_t>(hash);
}

std::vector<std::vector<int>> assign_share_partitions(const ShareAssignmentInput& input) {
  const std::size_t members = input.member_ids.size();
  const std::size_t partitions = input.topic_of.size();
  std::vector<std::vector<int>> result(members);
  if (members == 0 || partitions == 0) return result;
  std::vector<bool> hashed(partitions, false);
  // Step 1: each member onto one of its partitions by the hash of its id.
  for (std::size_t m = 0; m < members; ++m) {
    const std::vector<int>& mine = input.subscribed[m];
    if (mine.empty()) continue;
    const auto size = static_cast<std::int32_t>(mine.size());
    const std::int32_t index = std::abs(java_string_hash(input.member_ids[m]) % size);
    const int partition = mine[static_cast<std::size_t>(index)];
    result[m].push_back(partition);
    hashed[static_cast<std::size_t>(partition)] = true;
  }
  // Step 2: partitions nobody got in step 1 and nobody holds, round robin.
  const std::vector<std::vector<int>> holders = holders_by_partition(input);
  const bool homogeneous =
      std::all_of(input.subscribed.begin(), input.subscribed.end(),
                  [&](const std::vector<int>& s) { return s == input.subscribed[0]; });
  std::vector<std::size_t> next_member_of_topic;
  std::size_t next_member = 0;
  for (std::size_t p = 0; p < partitions; ++p) {
    const int partition = static_cast<int>(p);
    if (hashed[p] || !holders[p].empty()) continue;
    if (homogeneous) {
      if (!subscribes(input.subscribed[0], partition)) continue;
      result[next_member].push_back(partition);
      next_member = (next_member + 1) % members;
      continue;
    }
    const int topic = input.topic_of[p];
    if (next_member_of_topic.size() <= static_cast<std::size_t>(topic)) {
      next_member_of_topic.resize(static_cast<std::size_t>(topic) + 1, 0);
    }
    std::size_t& cursor = next_member_of_topic[static_cast<std::size_t>(topic)];
    for (std::size_t tried = 0; tried < members; ++tried) {
      const std::size_t m = cursor;
      cursor = (cursor + 1) % members;
      if (subscribes(input.subscribed[m], partition)) {
        result[m].push_back(partition);
        break;
      }
    }
  }
  // Step 3: keep what each member holds, of the topics it still subscribes to.
  for (std::size_t m = 0; m < members; ++m) {
    for (const int partition : input.current[m]) {
      if (partition < 0 || static_cast<std::size_t>(partition) >= partitions) continue;
      if (subscribes_to_topic(input, m, input.topic_of[static_cast<std::size_t>(partition)])) {
        result[m].push_back(partition);
      }
    }
    std::sort(result[m].begin(), result[m].end());
    result[m].erase(std::unique(result[m].begin(), result[m].end()), result[m].end());
  }
  return result;
}

}  // namespace kgroups::share
