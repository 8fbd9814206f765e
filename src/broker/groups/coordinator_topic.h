// SPDX-License-Identifier: Apache-2.0
//
// OffsetsTopic: Kafka's internal compacted topic __consumer_offsets in the broker's Cluster,
// where the group coordinators' records (committed offsets, group metadata, tombstones) are
// the durable copy of what they serve from memory. The topic is created on first use (the
// first FindCoordinator for a group, or the first record written) with
// --offsets-topic-num-partitions partitions, cleanup.policy=compact and marked internal;
// a group's records go to offsets_partition_for(group id). Its batches live in the log like
// any topic's, charged to the logs' share of --max-memory, and the log cleaner compacts them.
// Lifetimes: the Cluster and AppendNotifier must outlive it. Not thread-safe: the broker's
// network thread owns it with the Cluster.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "broker/storage/append_notifier.h"
#include "broker/storage/cluster.h"
#include "protocol/error_code.h"

namespace kgroups::broker {

inline constexpr std::string_view kOffsetsTopicName = "__consumer_offsets";

struct OffsetsTopicConfig {
  std::int32_t partitions = 50;         // offsets.topic.num.partitions (>= 1)
  std::int16_t replication_factor = 3;  // offsets.topic.replication.factor (at most --brokers)
};

// One record of the topic: an encoded key, and an encoded value or none (a tombstone).
struct OffsetsTopicRecord {
  std::vector<std::uint8_t> key;
  std::optional<std::vector<std::uint8_t>> value;
};

class OffsetsTopic {
 public:
  OffsetsTopic(Cluster& cluster, AppendNotifier& notifier, OffsetsTopicConfig config)
      : cluster_(cluster), notifier_(notifier), config_(config) {}

  [[nodiscard]] const OffsetsTopicConfig& config() const { return config_; }

  // The topic, created (compacted, internal) if it does not exist; nullptr if it cannot be
  // created (a limit of --max-topics or --max-partitions), which is logged once: the groups
  // are then served from memory only.
  StoredTopic* ensure_created();

  // The partition holding `group_id`'s records: Kafka's rule over the topic's partition
  // count (the configured one until the topic exists).
  [[nodiscard]] std::int32_t partition_for(std::string_view group_id) const;

  // Appends `records` as one batch (magic 2, uncompressed, stamped `timestamp_ms`) to
  // `partition`, creating the topic first if needed, and wakes the fetches waiting on it.
  // Returns kNone; kCoordinatorNotAvailable when the topic cannot be created;
  // kUnknownTopicOrPartition for a partition it does not have; or the Cluster's error
  // (kKafkaStorageError when the logs' share cannot make room), and then nothing is stored.
  protocol::ErrorCode append(std::int32_t partition, const std::vector<OffsetsTopicRecord>& records,
                             std::int64_t timestamp_ms);

 private:
  Cluster& cluster_;
  AppendNotifier& notifier_;
  OffsetsTopicConfig config_;
  bool creation_failure_logged_ = false;
};

}  // namespace kgroups::broker
