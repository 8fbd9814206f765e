// SPDX-License-Identifier: Apache-2.0
//
// TopicConfig: the settings of one topic that the broker acts on, each named after the Kafka
// topic config it stands for, with Kafka's defaults. The broker's own defaults (flags such as
// --log-retention-ms) start every topic; CreateTopics, AlterConfigs and
// IncrementalAlterConfigs change them per topic.
#pragma once

#include <cstdint>

namespace kgroups::broker {

// message.timestamp.type: who stamps the records.
enum class TimestampType : std::uint8_t {
  kCreateTime,     // the producer's timestamps are kept
  kLogAppendTime,  // the broker writes its clock into each batch
};

struct TopicConfig {
  // cleanup.policy: "delete" (retention drops old segments), "compact" (the cleaner keeps each
  // key's latest record), or both ("compact,delete").
  bool cleanup_delete = true;
  bool cleanup_compact = false;
  std::int64_t retention_ms = 604800000;     // retention.ms; -1 keeps records for ever
  std::int64_t retention_bytes = -1;         // retention.bytes, per partition; -1: no limit
  std::int32_t max_message_bytes = 1048588;  // max.message.bytes: the largest batch accepted
  TimestampType message_timestamp_type = TimestampType::kCreateTime;  // message.timestamp.type
  // message.timestamp.before.max.ms and .after.max.ms: how far a CreateTime record timestamp
  // may lie before or after the broker's clock.
  std::int64_t message_timestamp_before_max_ms = 9223372036854775807;
  std::int64_t message_timestamp_after_max_ms = 9223372036854775807;
  std::int32_t segment_bytes = 1073741824;  // segment.bytes: segments close at this size
  std::int64_t segment_ms = 604800000;      // segment.ms: segments close at this age
  std::int64_t min_compaction_lag_ms = 0;   // min.compaction.lag.ms: records younger stay
  std::int64_t max_compaction_lag_ms = 9223372036854775807;  // max.compaction.lag.ms
  std::int64_t delete_retention_ms = 86400000;  // delete.retention.ms: tombstones' lifetime
  double min_cleanable_dirty_ratio = 0.5;       // min.cleanable.dirty.ratio
  // min.insync.replicas: acks=all writes need this many in-sync replicas (NOT_ENOUGH_REPLICAS).
  std::int32_t min_insync_replicas = 1;
  // unclean.leader.election.enable: with no in-sync replica alive, an out-of-sync one may lead
  // (losing what it lacks) instead of the partition staying offline.
  bool unclean_leader_election = false;
  // flush.messages / flush.ms (with --log-dirs): a partition's log is flushed to the disk
  // (fdatasync) once this many records were appended since the last flush, or when the oldest
  // of them is this old. The defaults leave it to the operating system, as Kafka's do.
  std::int64_t flush_messages = 9223372036854775807;
  std::int64_t flush_ms = 9223372036854775807;
};

}  // namespace kgroups::broker
