// SPDX-License-Identifier: Apache-2.0
#include "broker/log_format/segment_file_name.h"

#include <algorithm>
#include <charconv>

namespace kgroups::broker {
namespace {

constexpr std::size_t kOffsetDigits = 20;
constexpr std::size_t kMaxTopicNameLength = 249;

bool all_digits(std::string_view text) {
  return !text.empty() && std::ranges::all_of(text, [](char c) { return c >= '0' && c <= '9'; });
}

bool legal_topic_name(std::string_view name) {
  if (name.empty() || name.size() > kMaxTopicNameLength || name == "." || name == "..") {
    return false;
  }
  return std::ranges::all_of(name, [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
           c == '_' || c == '-';
  });
}

}  // namespace

std::string segment_file_name(std::int64_t base_offset, std::string_view suffix) {
  std::string digits = std::to_string(base_offset);
  if (digits.size() < kOffsetDigits) digits.insert(0, kOffsetDigits - digits.size(), '0');
  digits.append(suffix);
  return digits;
}

std::optional<std::int64_t> parse_segment_file_name(std::string_view file_name,
                                                    std::string_view suffix) {
  if (file_name.size() != kOffsetDigits + suffix.size() || !file_name.ends_with(suffix)) {
    return std::nullopt;
  }
  const std::string_view digits = file_name.substr(0, kOffsetDigits);
  if (!all_digits(digits)) return std::nullopt;
  std::int64_t offset = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), offset);
  if (error != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  return offset;
}

std::string partition_directory_name(std::string_view topic, std::int32_t partition) {
  return std::string(topic) + "-" + std::to_string(partition);
}

std::optional<PartitionDirectoryName> parse_partition_directory_name(std::string_view name) {
  const std::size_t dash = name.rfind('-');
  if (dash == std::string_view::npos) return std::nullopt;
  const std::string_view topic = name.substr(0, dash);
  const std::string_view digits = name.substr(dash + 1);
  if (!legal_topic_name(topic) || !all_digits(digits)) return std::nullopt;
  std::int32_t partition = 0;
  const auto [end, error] =
      std::from_chars(digits.data(), digits.data() + digits.size(), partition);
  if (error != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  return PartitionDirectoryName{std::string(topic), partition};
}

}  // namespace kgroups::broker
