// SPDX-License-Identifier: Apache-2.0
#include "broker/config/topic_config_catalog.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <limits>

namespace kgroups::broker {
namespace {

constexpr std::int64_t kLongMax = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kLongMin = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t kIntMax = std::numeric_limits<std::int32_t>::max();

constexpr std::array<std::string_view, 2> kCleanupPolicies{"compact", "delete"};
constexpr std::array<std::string_view, 6> kCompressionTypes{"uncompressed", "zstd", "lz4",
                                                            "snappy",       "gzip", "producer"};
constexpr std::array<std::string_view, 2> kTimestampTypes{"CreateTime", "LogAppendTime"};

using enum ConfigType;
using enum ConfigCheck;

// Kafka's topic configs (its LogConfig), ordered by name.
constexpr std::array kCatalog{
    TopicConfigDefinition{"cleanup.policy", kList, "delete", "log.cleanup.policy", kListOf, 0, 0,
                          kCleanupPolicies,
                          "What happens to old records: delete drops whole old segments, compact "
                          "keeps the latest record of each key; both may be given."},
    TopicConfigDefinition{"compression.gzip.level",
                          kInt,
                          "-1",
                          "compression.gzip.level",
                          kGzipLevel,
                          0,
                          0,
                          {},
                          "The gzip level used when compression.type is gzip (-1: the codec's "
                          "default)."},
    TopicConfigDefinition{"compression.lz4.level",
                          kInt,
                          "9",
                          "compression.lz4.level",
                          kRange,
                          1,
                          17,
                          {},
                          "The lz4 level used when compression.type is lz4."},
    TopicConfigDefinition{"compression.type", kString, "producer", "compression.type", kOneOf, 0, 0,
                          kCompressionTypes,
                          "The codec of stored batches; producer keeps what the producer sent."},
    TopicConfigDefinition{"compression.zstd.level",
                          kInt,
                          "3",
                          "compression.zstd.level",
                          kRange,
                          -131072,
                          22,
                          {},
                          "The zstd level used when compression.type is zstd."},
    TopicConfigDefinition{"delete.retention.ms",
                          kLong,
                          "86400000",
                          "log.cleaner.delete.retention.ms",
                          kRange,
                          0,
                          kLongMax,
                          {},
                          "How long a compacted topic keeps tombstones (records with a null "
                          "value), so that consumers can see deletions."},
    TopicConfigDefinition{"file.delete.delay.ms",
                          kLong,
                          "60000",
                          "log.segment.delete.delay.ms",
                          kRange,
                          0,
                          kLongMax,
                          {},
                          "How long a dropped segment's file lingers before it is deleted."},
    TopicConfigDefinition{"flush.messages",
                          kLong,
                          "9223372036854775807",
                          "log.flush.interval.messages",
                          kRange,
                          1,
                          kLongMax,
                          {},
                          "Records written between forced flushes to disk."},
    TopicConfigDefinition{"flush.ms",
                          kLong,
                          "9223372036854775807",
                          "log.flush.interval.ms",
                          kRange,
                          0,
                          kLongMax,
                          {},
                          "Time between forced flushes to disk."},
    TopicConfigDefinition{"follower.replication.throttled.replicas",
                          kList,
                          "",
                          "",
                          kThrottledReplicas,
                          0,
                          0,
                          {},
                          "Replicas (partition:broker, or *) whose follower traffic is "
                          "throttled."},
    TopicConfigDefinition{"index.interval.bytes",
                          kInt,
                          "4096",
                          "log.index.interval.bytes",
                          kRange,
                          0,
                          kIntMax,
                          {},
                          "Bytes of records between two entries of the offset index."},
    TopicConfigDefinition{"leader.replication.throttled.replicas",
                          kList,
                          "",
                          "",
                          kThrottledReplicas,
                          0,
                          0,
                          {},
                          "Replicas (partition:broker, or *) whose leader traffic is throttled."},
    TopicConfigDefinition{"local.retention.bytes",
                          kLong,
                          "-2",
                          "log.local.retention.bytes",
                          kRange,
                          -2,
                          kLongMax,
                          {},
                          "With tiered storage, bytes kept locally per partition (-2: "
                          "retention.bytes)."},
    TopicConfigDefinition{"local.retention.ms",
                          kLong,
                          "-2",
                          "log.local.retention.ms",
                          kRange,
                          -2,
                          kLongMax,
                          {},
                          "With tiered storage, how long records stay local (-2: retention.ms)."},
    TopicConfigDefinition{"max.compaction.lag.ms",
                          kLong,
                          "9223372036854775807",
                          "log.cleaner.max.compaction.lag.ms",
                          kRange,
                          1,
                          kLongMax,
                          {},
                          "The longest a record may stay uncompacted in a compacted topic."},
    TopicConfigDefinition{"max.message.bytes",
                          kInt,
                          "1048588",
                          "message.max.bytes",
                          kRange,
                          0,
                          kIntMax,
                          {},
                          "The largest record batch the topic accepts from a producer."},
    TopicConfigDefinition{"message.downconversion.enable",
                          kBoolean,
                          "true",
                          "log.message.downconversion.enable",
                          kTrueOrFalse,
                          0,
                          0,
                          {},
                          "Whether old consumers get records converted to their format."},
    TopicConfigDefinition{"message.format.version",
                          kString,
                          "3.0-IV1",
                          "log.message.format.version",
                          kFormatVersion,
                          0,
                          0,
                          {},
                          "The record format version (ignored from Kafka 3.0 on)."},
    TopicConfigDefinition{"message.timestamp.after.max.ms",
                          kLong,
                          "9223372036854775807",
                          "log.message.timestamp.after.max.ms",
                          kRange,
                          0,
                          kLongMax,
                          {},
                          "How far in the future a CreateTime timestamp may be, relative to the "
                          "broker's clock."},
    TopicConfigDefinition{"message.timestamp.before.max.ms",
                          kLong,
                          "9223372036854775807",
                          "log.message.timestamp.before.max.ms",
                          kRange,
                          0,
                          kLongMax,
                          {},
                          "How far in the past a CreateTime timestamp may be, relative to the "
                          "broker's clock."},
    TopicConfigDefinition{"message.timestamp.difference.max.ms",
                          kLong,
                          "9223372036854775807",
                          "log.message.timestamp.difference.max.ms",
                          kRange,
                          0,
                          kLongMax,
                          {},
                          "The largest difference between a CreateTime timestamp and the "
                          "broker's clock (superseded by the before/after configs)."},
    TopicConfigDefinition{"message.timestamp.type", kString, "CreateTime",
                          "log.message.timestamp.type", kOneOf, 0, 0, kTimestampTypes,
                          "Whose timestamps records carry: the producer's (CreateTime) or the "
                          "broker's clock at append (LogAppendTime)."},
    TopicConfigDefinition{"min.cleanable.dirty.ratio",
                          kDouble,
                          "0.5",
                          "log.cleaner.min.cleanable.ratio",
                          kRatio,
                          0,
                          0,
                          {},
                          "The share of a compacted log not yet cleaned above which the cleaner "
                          "runs."},
    TopicConfigDefinition{"min.compaction.lag.ms",
                          kLong,
                          "0",
                          "log.cleaner.min.compaction.lag.ms",
                          kRange,
                          0,
                          kLongMax,
                          {},
                          "The youngest a record may be and still be compacted away."},
    TopicConfigDefinition{"min.insync.replicas",
                          kInt,
                          "1",
                          "min.insync.replicas",
                          kRange,
                          1,
                          kIntMax,
                          {},
                          "Replicas that must hold a record before acks=all succeeds."},
    TopicConfigDefinition{"preallocate",
                          kBoolean,
                          "false",
                          "log.preallocate",
                          kTrueOrFalse,
                          0,
                          0,
                          {},
                          "Whether segment files are allocated at full size when created."},
    TopicConfigDefinition{"remote.log.copy.disable",
                          kBoolean,
                          "false",
                          "",
                          kTrueOrFalse,
                          0,
                          0,
                          {},
                          "With tiered storage, stops copying segments to remote storage."},
    TopicConfigDefinition{"remote.log.delete.on.disable",
                          kBoolean,
                          "false",
                          "",
                          kTrueOrFalse,
                          0,
                          0,
                          {},
                          "With tiered storage, deletes remote segments when tiering is turned "
                          "off."},
    TopicConfigDefinition{"remote.storage.enable",
                          kBoolean,
                          "false",
                          "",
                          kTrueOrFalse,
                          0,
                          0,
                          {},
                          "Whether the topic's old segments move to remote (tiered) storage."},
    TopicConfigDefinition{"retention.bytes",
                          kLong,
                          "-1",
                          "log.retention.bytes",
                          kRange,
                          kLongMin,
                          kLongMax,
                          {},
                          "Bytes each partition keeps before its oldest segments are dropped "
                          "(-1: no limit)."},
    TopicConfigDefinition{"retention.ms",
                          kLong,
                          "604800000",
                          "log.retention.ms",
                          kRange,
                          -1,
                          kLongMax,
                          {},
                          "How long records are kept before their segment is dropped (-1: for "
                          "ever)."},
    TopicConfigDefinition{"segment.bytes",
                          kInt,
                          "1073741824",
                          "log.segment.bytes",
                          kRange,
                          14,
                          kIntMax,
                          {},
                          "The size at which a partition starts a new segment."},
    TopicConfigDefinition{"segment.index.bytes",
                          kInt,
                          "10485760",
                          "log.index.size.max.bytes",
                          kRange,
                          4,
                          kIntMax,
                          {},
                          "The largest offset index of a segment."},
    TopicConfigDefinition{"segment.jitter.ms",
                          kLong,
                          "0",
                          "log.roll.jitter.ms",
                          kRange,
                          0,
                          kLongMax,
                          {},
                          "A random amount subtracted from segment.ms per segment, so segments "
                          "do not all roll at once."},
    TopicConfigDefinition{"segment.ms",
                          kLong,
                          "604800000",
                          "log.roll.ms",
                          kRange,
                          1,
                          kLongMax,
                          {},
                          "The age at which a partition starts a new segment."},
    TopicConfigDefinition{"unclean.leader.election.enable",
                          kBoolean,
                          "false",
                          "unclean.leader.election.enable",
                          kTrueOrFalse,
                          0,
                          0,
                          {},
                          "Whether a replica that is not in sync may become leader."},
};

static_assert(std::is_sorted(kCatalog.begin(), kCatalog.end(),
                             [](const auto& a, const auto& b) { return a.name < b.name; }),
              "keep the catalog ordered by name");

std::string_view trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())) != 0) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())) != 0) {
    text.remove_suffix(1);
  }
  return text;
}

std::optional<std::int64_t> parse_whole(std::string_view text) {
  text = trim(text);
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  std::int64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [parsed_end, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error != std::errc() || parsed_end != end) return std::nullopt;
  return value;
}

std::optional<double> parse_decimal(std::string_view text) {
  text = trim(text);
  double value = 0;
  const char* end = text.data() + text.size();
  const auto [parsed_end, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error != std::errc() || parsed_end != end) return std::nullopt;
  return value;
}

std::optional<bool> parse_boolean(std::string_view text) {
  text = trim(text);
  const auto equals = [text](std::string_view word) {
    return std::ranges::equal(text, word, [](char a, char b) {
      return std::tolower(static_cast<unsigned char>(a)) == b;
    });
  };
  if (equals("true")) return true;
  if (equals("false")) return false;
  return std::nullopt;
}

bool all_digits(std::string_view text) {
  return !text.empty() && std::ranges::all_of(text, [](char c) { return c >= '0' && c <= '9'; });
}

// 0.10.2, 2.8, 3.0-IV1: two or three dot-separated numbers, optionally -IV<number>.
bool is_format_version(std::string_view text) {
  text = trim(text);
  if (const auto dash = text.find('-'); dash != std::string_view::npos) {
    const std::string_view suffix = text.substr(dash + 1);
    if (!suffix.starts_with("IV") || !all_digits(suffix.substr(2))) return false;
    text = text.substr(0, dash);
  }
  std::size_t parts = 0;
  while (true) {
    const auto dot = text.find('.');
    if (!all_digits(text.substr(0, dot))) return false;
    ++parts;
    if (dot == std::string_view::npos) break;
    text.remove_prefix(dot + 1);
  }
  return parts == 2 || parts == 3;
}

bool is_throttled_replica_list(std::string_view text) {
  if (trim(text) == "*") return true;
  for (const std::string& entry : split_config_list(text)) {
    const auto colon = entry.find(':');
    if (colon == std::string::npos || !all_digits(std::string_view(entry).substr(0, colon)) ||
        !all_digits(std::string_view(entry).substr(colon + 1))) {
      return false;
    }
  }
  return true;
}

std::string joined(std::span<const std::string_view> words) {
  std::string out;
  for (const std::string_view word : words) {
    if (!out.empty()) out += ", ";
    out += word;
  }
  return out;
}

std::string invalid(const TopicConfigDefinition& definition, std::string_view value,
                    std::string_view allowed) {
  return "Invalid value '" + std::string(value) + "' for configuration " +
         std::string(definition.name) + ": " + std::string(allowed) + ".";
}

std::string range_text(std::int64_t min, std::int64_t max) {
  if (max == kLongMax || max == kIntMax) return "a whole number >= " + std::to_string(min);
  return "a whole number from " + std::to_string(min) + " to " + std::to_string(max);
}

}  // namespace

std::span<const TopicConfigDefinition> topic_config_catalog() { return kCatalog; }

const TopicConfigDefinition* find_topic_config(std::string_view name) {
  const auto it = std::ranges::lower_bound(kCatalog, name, {}, &TopicConfigDefinition::name);
  return it != kCatalog.end() && it->name == name ? &*it : nullptr;
}

std::vector<std::string> split_config_list(std::string_view value) {
  std::vector<std::string> entries;
  while (true) {
    const auto comma = value.find(',');
    const std::string_view entry = trim(value.substr(0, comma));
    if (!entry.empty()) entries.emplace_back(entry);
    if (comma == std::string_view::npos) break;
    value.remove_prefix(comma + 1);
  }
  return entries;
}

std::optional<std::string> check_topic_config_value(const TopicConfigDefinition& definition,
                                                    std::string_view value) {
  switch (definition.check) {
    case kRange: {
      const std::optional<std::int64_t> number = parse_whole(value);
      if (!number || *number < definition.min || *number > definition.max) {
        return invalid(definition, value,
                       "it must be " + range_text(definition.min, definition.max));
      }
      return std::nullopt;
    }
    case kRatio: {
      const std::optional<double> number = parse_decimal(value);
      if (!number || !(*number >= 0.0 && *number <= 1.0)) {
        return invalid(definition, value, "it must be a number from 0 to 1");
      }
      return std::nullopt;
    }
    case kTrueOrFalse:
      if (!parse_boolean(value)) return invalid(definition, value, "it must be true or false");
      return std::nullopt;
    case kOneOf:
      if (std::ranges::find(definition.allowed, trim(value)) == definition.allowed.end()) {
        return invalid(definition, value, "it must be one of " + joined(definition.allowed));
      }
      return std::nullopt;
    case kListOf: {
      const std::vector<std::string> entries = split_config_list(value);
      const bool all_allowed = std::ranges::all_of(entries, [&](const std::string& entry) {
        return std::ranges::find(definition.allowed, entry) != definition.allowed.end();
      });
      if (entries.empty() || !all_allowed) {
        return invalid(definition, value,
                       "it must be a comma-separated list of " + joined(definition.allowed));
      }
      return std::nullopt;
    }
    case kGzipLevel: {
      const std::optional<std::int64_t> level = parse_whole(value);
      if (!level || (*level != -1 && (*level < 1 || *level > 9))) {
        return invalid(definition, value, "it must be a whole number from 1 to 9, or -1");
      }
      return std::nullopt;
    }
    case kFormatVersion:
      if (!is_format_version(value)) {
        return invalid(definition, value, "it must be a Kafka version such as 2.8 or 3.0-IV1");
      }
      return std::nullopt;
    case kThrottledReplicas:
      if (!is_throttled_replica_list(value)) {
        return invalid(definition, value,
                       "it must be * or a comma-separated list of partition:broker pairs");
      }
      return std::nullopt;
  }
  return std::nullopt;
}

std::optional<TopicConfig> resolve_topic_config(const TopicConfig& defaults,
                                                const TopicConfigValues& values,
                                                std::string& error) {
  TopicConfig config = defaults;
  for (const auto& entry : values) {
    const std::string& name = entry.first;
    const std::string& value = entry.second;
    const TopicConfigDefinition* definition = find_topic_config(name);
    if (definition == nullptr) {
      error = "Unknown topic config name: '" + name +
              "' (see Kafka's topic configs, e.g. retention.ms, cleanup.policy).";
      return std::nullopt;
    }
    if (auto bad = check_topic_config_value(*definition, value)) {
      error = std::move(*bad);
      return std::nullopt;
    }
    const auto whole = [&value] { return *parse_whole(value); };
    const auto whole32 = [&value] { return static_cast<std::int32_t>(*parse_whole(value)); };
    if (name == "cleanup.policy") {
      const std::vector<std::string> policies = split_config_list(value);
      config.cleanup_delete = std::ranges::find(policies, "delete") != policies.end();
      config.cleanup_compact = std::ranges::find(policies, "compact") != policies.end();
    } else if (name == "retention.ms") {
      config.retention_ms = whole();
    } else if (name == "retention.bytes") {
      config.retention_bytes = whole();
    } else if (name == "max.message.bytes") {
      config.max_message_bytes = whole32();
    } else if (name == "message.timestamp.type") {
      config.message_timestamp_type = trim(value) == "LogAppendTime" ? TimestampType::kLogAppendTime
                                                                     : TimestampType::kCreateTime;
    } else if (name == "message.timestamp.before.max.ms") {
      config.message_timestamp_before_max_ms = whole();
    } else if (name == "message.timestamp.after.max.ms") {
      config.message_timestamp_after_max_ms = whole();
    } else if (name == "segment.bytes") {
      config.segment_bytes = whole32();
    } else if (name == "segment.ms") {
      config.segment_ms = whole();
    } else if (name == "flush.messages") {
      config.flush_messages = whole();
    } else if (name == "flush.ms") {
      config.flush_ms = whole();
    } else if (name == "min.compaction.lag.ms") {
      config.min_compaction_lag_ms = whole();
    } else if (name == "max.compaction.lag.ms") {
      config.max_compaction_lag_ms = whole();
    } else if (name == "delete.retention.ms") {
      config.delete_retention_ms = whole();
    } else if (name == "min.cleanable.dirty.ratio") {
      config.min_cleanable_dirty_ratio = *parse_decimal(value);
    } else if (name == "min.insync.replicas") {
      config.min_insync_replicas = whole32();
    } else if (name == "unclean.leader.election.enable") {
      config.unclean_leader_election = *parse_boolean(value);
    } else if (name == "remote.storage.enable" && *parse_boolean(value)) {
      error = "remote.storage.enable cannot be true: kgroupsd has no tiered (remote) storage.";
      return std::nullopt;
    }
  }
  if (config.min_compaction_lag_ms > config.max_compaction_lag_ms) {
    error = "min.compaction.lag.ms (" + std::to_string(config.min_compaction_lag_ms) +
            ") must not be greater than max.compaction.lag.ms (" +
            std::to_string(config.max_compaction_lag_ms) + ").";
    return std::nullopt;
  }
  return config;
}

std::string default_topic_config_value(const TopicConfigDefinition& definition,
                                       const TopicConfig& defaults) {
  const std::string_view name = definition.name;
  if (name == "retention.ms") return std::to_string(defaults.retention_ms);
  if (name == "retention.bytes") return std::to_string(defaults.retention_bytes);
  if (name == "max.message.bytes") return std::to_string(defaults.max_message_bytes);
  if (name == "flush.messages") return std::to_string(defaults.flush_messages);
  if (name == "flush.ms") return std::to_string(defaults.flush_ms);
  if (name == "min.insync.replicas") return std::to_string(defaults.min_insync_replicas);
  if (name == "unclean.leader.election.enable") {
    return defaults.unclean_leader_election ? "true" : "false";
  }
  return std::string(definition.default_value);
}

}  // namespace kgroups::broker
