// SPDX-License-Identifier: Apache-2.0
//
// Kafka's small text files of a log directory, and the atomic write they are all written with:
// - the offset checkpoints (recovery-point-offset-checkpoint, log-start-offset-checkpoint,
//   replication-offset-checkpoint): "0" (the version), the entry count, then one
//   "<topic> <partition> <offset>" line per partition;
// - a partition's leader-epoch-checkpoint: "0", the count, then "<epoch> <start offset>" lines;
// - meta.properties: java.util.Properties' "key=value" lines after a '#' comment;
// - a partition's partition.metadata: "version: 0" and "topic_id: <id>" (Kafka's Uuid text).
// The formatters write what Kafka writes; the parsers read what Kafka reads (Kafka's
// CheckpointFile: the count must match the lines that follow; fields split at whitespace).
// Thread-safe: pure functions, and file functions that share no state.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "protocol/uuid.h"

namespace kgroups::broker {

// Writes `contents` to `path` atomically: to `path`.tmp, flushed (fsync), renamed over
// `path`, then the folder flushed, so a crash leaves the old file or the new one. Throws
// std::system_error naming the path when any step fails (the .tmp file is then removed).
void write_file_atomically(const std::filesystem::path& path, std::string_view contents);
// The whole of a small file; nullopt when it does not exist. Throws std::system_error naming
// the path for any other failure.
std::optional<std::string> read_small_file(const std::filesystem::path& path);

struct TopicPartitionOffset {
  std::string topic;
  std::int32_t partition = 0;
  std::int64_t offset = 0;
};
std::string format_offset_checkpoint(std::span<const TopicPartitionOffset> entries);
// The entries (none for an empty text, as Kafka reads an empty file), or nullopt with `error`
// saying which line is wrong.
std::optional<std::vector<TopicPartitionOffset>> parse_offset_checkpoint(std::string_view text,
                                                                         std::string& error);

struct EpochStart {
  std::int32_t epoch = 0;
  std::int64_t start_offset = 0;  // the first offset written in this leader epoch
};
std::string format_leader_epoch_checkpoint(std::span<const EpochStart> entries);
std::optional<std::vector<EpochStart>> parse_leader_epoch_checkpoint(std::string_view text,
                                                                     std::string& error);

// "#<comment>" then "key=value" lines in the order given, escaped as Properties.store()
// escapes them (a backslash before '=', ':', '#', '!', a key's spaces, a value's leading
// space; \t \n \r \f; \uXXXX for characters outside printable ASCII).
std::string format_properties(std::span<const std::pair<std::string, std::string>> entries,
                              std::string_view comment);
// The key/value pairs in file order, read as Properties.load() reads them: '#' and '!'
// comment lines and blank lines skipped, the key ending at the first unescaped '=', ':' or
// whitespace, escapes and line continuations undone. nullopt with `error` for a bad escape.
std::optional<std::vector<std::pair<std::string, std::string>>> parse_properties(
    std::string_view text, std::string& error);

// Kafka's Uuid.toString(): the 16 bytes in base64url without padding (22 characters); and
// back (nullopt unless 22 base64url characters).
std::string format_uuid(const protocol::Uuid& id);
std::optional<protocol::Uuid> parse_uuid(std::string_view text);
std::string format_partition_metadata(const protocol::Uuid& topic_id);
// The topic id; nullopt with `error` for another version, a malformed line or the zero id
// (Kafka refuses it too).
std::optional<protocol::Uuid> parse_partition_metadata(std::string_view text, std::string& error);

}  // namespace kgroups::broker
