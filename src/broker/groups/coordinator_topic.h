// SPDX-License-Identifier: Apache-2.0
//
// CoordinatorTopic: one of Kafka's internal compacted topics in the broker's Cluster where a
// coordinator keeps the durable copy of what it serves from memory: __consumer_offsets (the
// group coordinators' records: committed offsets, group metadata, tombstones) and
// __transaction_state (the transaction coordinator's: each transactional id's state). The
// topic is created on first use (FindCoordinator, or the first record written) with the
// configured partitions, cleanup.policy=compact and marked internal; a key's records go to
// partition_for(key), Kafka's abs(Java hashCode) mod partitions. Its batches live in the log
// like any topic's, charged to the logs' share of --max-memory, and the log cleaner compacts
// them. Lifetimes: the Cluster and AppendNotifier must outlive it. Not thread-safe: the
// broker's network thread owns it with the Cluster.
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
inline constexpr std::string_view kTransactionStateTopicName = "__transaction_state";

struct CoordinatorTopicConfig {
  std::string_view name = kOffsetsTopicName;
  std::int32_t partitions = 50;         // e.g. offsets.topic.num.partitions (>= 1)
  std::int16_t replication_factor = 3;  // at most --brokers when created
  // For the line logged when the topic cannot be created: the flag that sets `partitions`
  // and what the coordinator then keeps in memory only.
  std::string_view partitions_flag = "--offsets-topic-num-partitions";
  std::string_view kept_in_memory = "groups";
};

// The two topics; the broker sizes them with their flags (--offsets-topic-*,
// --transaction-state-log-*) through sized().
inline constexpr CoordinatorTopicConfig kOffsetsTopic{
    .name = kOffsetsTopicName, .partitions_flag = "--offsets-topic-num-partitions"};
inline constexpr CoordinatorTopicConfig kTransactionStateTopic{
    .name = kTransactionStateTopicName,
    .partitions_flag = "--transaction-state-log-num-partitions",
    .kept_in_memory = "transactions"};

constexpr CoordinatorTopicConfig sized(CoordinatorTopicConfig config, std::int32_t partitions,
                                       std::int16_t replication_factor) {
  config.partitions = partitions;
  config.replication_factor = replication_factor;
  return config;
}

// One record of the topic: an encoded key, and an encoded value or none (a tombstone).
struct CoordinatorTopicRecord {
  std::vector<std::uint8_t> key;
  std::optional<std::vector<std::uint8_t>> value;
};

class CoordinatorTopic {
 public:
  CoordinatorTopic(Cluster& cluster, AppendNotifier& notifier, CoordinatorTopicConfig config)
      : cluster_(cluster), notifier_(notifier), config_(config) {}

  [[nodiscard]] const CoordinatorTopicConfig& config() const { return config_; }
  [[nodiscard]] std::string_view name() const { return config_.name; }

  // The topic, created (compacted, internal) if it does not exist; nullptr if it cannot be
  // created (a limit of --max-topics or --max-partitions), which is logged once: the
  // coordinator then serves from memory only.
  StoredTopic* ensure_created();
  // The topic if it exists (nullptr otherwise); never creates it.
  [[nodiscard]] const StoredTopic* find() const { return cluster_.find_topic(config_.name); }

  // The partition holding `key`'s records (a group id, a transactional id): Kafka's rule over
  // the topic's partition count (the configured one until the topic exists).
  [[nodiscard]] std::int32_t partition_for(std::string_view key) const;

  // Appends `records` as one batch (magic 2, uncompressed, stamped `timestamp_ms`) to
  // `partition`, creating the topic first if needed, and wakes the fetches waiting on it.
  // Returns kNone; kCoordinatorNotAvailable when the topic cannot be created;
  // kUnknownTopicOrPartition for a partition it does not have; or the Cluster's error
  // (kKafkaStorageError when the logs' share cannot make room), and then nothing is stored.
  protocol::ErrorCode append(std::int32_t partition,
                             const std::vector<CoordinatorTopicRecord>& records,
                             std::int64_t timestamp_ms);

 private:
  Cluster& cluster_;
  AppendNotifier& notifier_;
  CoordinatorTopicConfig config_;
  bool creation_failure_logged_ = false;
};

}  // namespace kgroups::broker
