// SPDX-License-Identifier: Apache-2.0
//
// The names Kafka gives a log directory's files: a segment's files are its base offset in 20
// zero-padded digits and a suffix (`00000000000000000042.log`, `.index`, `.timeindex`,
// `.log.cleaned`, `.log.swap`), a partition's folder is `<topic>-<partition>`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kgroups::broker {

// "00000000000000000042" + suffix. Requires base_offset >= 0.
std::string segment_file_name(std::int64_t base_offset, std::string_view suffix);
// The base offset of a name segment_file_name() made with `suffix`, else nullopt.
std::optional<std::int64_t> parse_segment_file_name(std::string_view file_name,
                                                    std::string_view suffix);

// "<topic>-<partition>".
std::string partition_directory_name(std::string_view topic, std::int32_t partition);
struct PartitionDirectoryName {
  std::string topic;
  std::int32_t partition = 0;
};
// Splits a folder name at its last '-': a legal topic name ([a-zA-Z0-9._-], 1-249
// characters) and a partition id (a non-negative int32); else nullopt.
std::optional<PartitionDirectoryName> parse_partition_directory_name(std::string_view name);

}  // namespace kgroups::broker
