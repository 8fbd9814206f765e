// SPDX-License-Identifier: Apache-2.0
#include "topic_selection.h"

#include <charconv>

namespace kgroups::cli {

std::optional<TopicSelection> parse_topic_selection(std::string_view text) {
  const std::size_t colon = text.rfind(':');
  TopicSelection selection;
  selection.topic = std::string(text.substr(0, colon));
  if (selection.topic.empty()) return std::nullopt;
  if (colon == std::string_view::npos) return selection;
  std::string_view rest = text.substr(colon + 1);
  for (;;) {
    const std::size_t comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    std::int32_t partition = 0;
    const auto [end, error] = std::from_chars(item.data(), item.data() + item.size(), partition);
    if (item.empty() || error != std::errc{} || end != item.data() + item.size() || partition < 0) {
      return std::nullopt;
    }
    selection.partitions.push_back(partition);
    if (comma == std::string_view::npos) return selection;
    rest = rest.substr(comma + 1);
  }
}

}  // namespace kgroups::cli
