// SPDX-License-Identifier: Apache-2.0
//
// Cluster: the broker's topics, each a number of partitions, each partition a BatchLog, and
// the memory those logs hold. Topics are created at start-up (seeds), by CreateTopics, or on
// first use (auto-creation by Metadata and Produce, when enabled) with the default partition
// count, within the configured counts of topics and partitions. CreatePartitions grows a
// topic (add_partitions), DeleteTopics deletes one (delete_topic), DeleteRecords moves a
// partition's log start offset (delete_records).
//
// Lifetimes: a StoredTopic lives until delete_topic(); its BatchLogs live as long as it does and
// never move (growing appends to a std::deque). So a StoredTopic* or BatchLog* is valid only until
// the next delete_topic(): code that keeps one across a co_await (a long-polling Fetch) looks
// it up again by name or id after every wait, and the broker wakes such waiters before it
// deletes (Broker::delete_topic). metadata_version() moves on every creation, growth and
// deletion.
//
// Memory: every append goes through append(), which keeps the logs' memory within
// `log_memory_bytes` by evicting the oldest segments of all partitions first (one aggregated
// log line per second), then applies the topic's retention by size; apply_time_retention()
// applies retention by time. Both move log start offsets; consumers past them get
// OFFSET_OUT_OF_RANGE and follow their auto.offset.reset. A segment a log lets go while a
// queued Fetch response pins it counts whole in the share until the last pin goes
// (ReleasedSegmentMemory), so room is made by evicting other segments instead.
// Not thread-safe: the broker's single network thread owns the Cluster.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "broker/config/dynamic_broker_config.h"
#include "broker/config/topic_config.h"
#include "broker/config/topic_config_catalog.h"
#include "broker/storage/batch_log.h"
#include "broker/storage/released_segment_memory.h"
#include "broker/storage/topic_observer.h"
#include "protocol/error_code.h"
#include "protocol/result.h"
#include "protocol/uuid.h"

namespace kgroups::broker {

struct ClusterConfig {
  std::int32_t default_partitions = 6;  // partitions of auto-created topics (>= 1)
  bool auto_create = true;              // unknown topics are created on first use
  // What topics do not set themselves: the broker's flags (log.retention.ms, ...) with the
  // dynamic broker configs applied (Cluster::set_topic_defaults()).
  TopicConfig topic_defaults;
  std::int32_t max_topics = std::numeric_limits<std::int32_t>::max();
  std::int32_t max_partitions = std::numeric_limits<std::int32_t>::max();  // all topics
  std::int32_t max_partitions_per_topic = std::numeric_limits<std::int32_t>::max();
  std::int64_t log_memory_bytes = std::numeric_limits<std::int64_t>::max();  // all logs
  std::int32_t brokers = 1;                     // replicas are placed on node ids 0..brokers-1
  std::int32_t default_replication_factor = 1;  // default.replication.factor
};

// The replicas of each partition of a new topic, in partition order; each list's first node
// is the partition's preferred leader.
using ReplicaAssignment = std::vector<std::vector<std::int32_t>>;

// How a new topic's partitions are replicated: CreateTopics' replication factor (-1: the
// default) or its manual assignment (when not empty; the factor is then -1).
struct TopicReplication {
  std::int32_t replication_factor = -1;
  ReplicaAssignment assignment;
};

class LogDirectory;
class ReplicationController;

struct StoredTopic {
  std::string name;
  protocol::Uuid id{};  // KIP-516 topic id: random, never zero, fixed at creation
  TopicConfig config;
  TopicConfigValues set_configs;  // the configs given explicitly (CreateTopics, AlterConfigs)
  // One of Kafka's internal topics (__consumer_offsets), set by whoever creates it: Metadata
  // reports it as internal and Produce from clients is refused.
  bool internal = false;
  // Index = partition id; size >= 1, only grows (add_partitions). A deque, so growing never
  // moves a BatchLog.
  std::deque<BatchLog> partitions;
};

// What a retention pass or an eviction dropped.
struct DroppedSegments {
  std::size_t segments = 0;
  std::size_t memory_bytes = 0;
  std::size_t partitions = 0;  // partitions whose log start offset moved
};

class Cluster {
 public:
  explicit Cluster(ClusterConfig config);
  // The defaults of ClusterConfig with these two set.
  Cluster(std::int32_t default_partitions, bool auto_create);

  // Creates topic `name` with `partitions` partitions and `config` (the broker's defaults when
  // nullopt). Returns kNone on success; otherwise the error check_new_topic() gives (or
  // kKafkaStorageError when the log directory cannot hold its folders), and creates nothing.
  // `replication` places the replicas (Kafka's rack-unaware placement with the factor, or the
  // manual assignment, whose size then gives the partitions).
  protocol::ErrorCode create_topic(std::string_view name, std::int32_t partitions,
                                   const std::optional<TopicConfig>& config = std::nullopt,
                                   const TopicReplication& replication = {});

  // Checks `replication` for a topic of `partitions` partitions: kInvalidReplicationFactor
  // (below 1 or above the brokers), kInvalidReplicaAssignment (not one list per partition,
  // lists of different sizes, an unknown node id, a node twice in one list), else kNone.
  // `reason` says which.
  [[nodiscard]] protocol::ErrorCode check_replication(std::int32_t partitions,
                                                      const TopicReplication& replication,
                                                      std::string& reason) const;

  // Checks what create_topic() would return, without creating anything:
  // kInvalidTopicException (not a legal Kafka topic name), kInvalidPartitions (< 1 or more
  // than max_partitions_per_topic), kTopicAlreadyExists, or kPolicyViolation (one topic more
  // than max_topics, or partitions beyond max_partitions in all).
  [[nodiscard]] protocol::ErrorCode check_new_topic(std::string_view name,
                                                    std::int32_t partitions) const;

  // Gives `topic` the explicitly set configs `values` and `config`, what they resolve to
  // (resolve_topic_config). They apply at once: each partition's segment limit follows
  // segment.bytes, and retention.bytes drops what is beyond it now; retention.ms acts at the
  // next apply_time_retention(), max.message.bytes and message.timestamp.type at the next
  // append.
  void set_topic_config(StoredTopic& topic, const TopicConfig& config, TopicConfigValues values);

  // The broker configs changed at run time, and the topic defaults the flags gave.
  [[nodiscard]] const DynamicBrokerConfig& dynamic_broker_config() const { return dynamic_; }
  // Stores `dynamic` and makes `defaults` (what it resolves to) the topic defaults from now
  // on: for topics created later, and for existing topics through set_topic_config(), which
  // the caller calls for each.
  void set_dynamic_broker_config(DynamicBrokerConfig dynamic, const TopicConfig& defaults) {
    dynamic_ = std::move(dynamic);
    config_.topic_defaults = defaults;
  }

  // Checks what add_partitions(topic, count) would return, without changing anything:
  // kInvalidPartitions (count not above the current count, or above
  // max_partitions_per_topic) or kPolicyViolation (beyond max_partitions in all).
  [[nodiscard]] protocol::ErrorCode check_new_partitions(const StoredTopic& topic,
                                                         std::int32_t count) const;

  // Grows `topic` to `count` partitions (new, empty logs). Returns kNone, or the error
  // check_new_partitions() gives and changes nothing. Existing BatchLogs do not move.
  protocol::ErrorCode add_partitions(StoredTopic& topic, std::int32_t count);

  // Deletes the topic called `name` with its logs, giving their memory back; returns whether
  // it existed. Every StoredTopic* and BatchLog* of it dangles afterwards: the caller wakes the
  // fetches waiting on its partitions first (Broker::delete_topic does). A topic created
  // later with the same name gets a new id and starts at offset 0.
  bool delete_topic(std::string_view name);

  // DeleteRecords: moves the log start offset of `topic`'s partition `partition` (which must
  // exist) up to `offset` (-1: the high watermark), dropping the segments wholly below it;
  // an offset inside a batch is allowed. Returns the new log start offset (the low
  // watermark), unchanged for an offset at or below it; kOffsetOutOfRange for an offset
  // beyond the high watermark or below -1.
  protocol::Result<std::int64_t> delete_records(StoredTopic& topic, std::int32_t partition,
                                                std::int64_t offset);

  // The topic called `name`, or nullptr.
  StoredTopic* find_topic(std::string_view name);
  [[nodiscard]] const StoredTopic* find_topic(std::string_view name) const;

  // The topic whose id is `id`, or nullptr (always for the zero id).
  [[nodiscard]] const StoredTopic* find_topic(const protocol::Uuid& id) const;

  // Counts topic creations, growths and deletions, so that a reader can tell whether the
  // topics changed since it last looked (the new consumer-group protocol recomputes
  // assignments then).
  [[nodiscard]] std::uint64_t metadata_version() const { return metadata_version_; }

  // The topic called `name`, creating it with the default partition count if it is unknown
  // and auto-creation is on. nullptr if it does not exist and cannot be created (auto-creation
  // off, an illegal name, or a limit reached).
  StoredTopic* find_or_create_topic(std::string_view name);

  // Partition `partition` of topic `name`, or nullptr if either does not exist.
  BatchLog* find_partition(std::string_view name, std::int32_t partition);
  // How many partitions topic `name` has; 0 when it does not exist. Partition p of it exists
  // when 0 <= p < this.
  [[nodiscard]] std::int32_t partition_count(std::string_view name) const;

  // Appends a validated batch to `topic`'s partition `partition` (which must exist): makes
  // room within the logs' memory by evicting the oldest segments of any partition, appends
  // (see BatchLog::append), then applies the topic's retention.bytes (cleanup.policy delete).
  // Returns the batch's base offset, or kKafkaStorageError (retriable) when even evicting
  // everything would not make room, or the log directory's disk cannot take the batch;
  // nothing is stored then. With a log directory the topic's flush policy then applies.
  protocol::Result<std::int64_t> append(StoredTopic& topic, std::int32_t partition,
                                        std::span<const std::uint8_t> batch,
                                        std::int32_t last_offset_delta, std::int64_t max_timestamp);

  // Sets the segment sizes and, for compacted topics, the segment rolling (segment.bytes,
  // segment.ms) of every partition of `topic` from its config; call it again after changing
  // the config.
  void apply_segment_config(StoredTopic& topic) const;

  // Adds `memory_delta` to log_memory_used(): the change of a log's memory_bytes() made
  // outside append() and retention (the log cleaner's replace_segments()).
  void record_log_memory_change(std::int64_t memory_delta);

  // Drops, in every partition of a topic whose cleanup.policy has "delete", the segments whose
  // newest record is older than its topic's retention.ms before `now_ms` (wall clock, ms since
  // the epoch).
  DroppedSegments apply_time_retention(std::int64_t now_ms);

  // All topics, ordered by name.
  [[nodiscard]] const std::map<std::string, std::unique_ptr<StoredTopic>, std::less<>>& topics()
      const {
    return topics_;
  }

  [[nodiscard]] const ClusterConfig& config() const { return config_; }
  [[nodiscard]] std::int32_t default_partitions() const { return config_.default_partitions; }
  [[nodiscard]] bool auto_create() const { return config_.auto_create; }
  // Partitions of all topics.
  [[nodiscard]] std::int64_t partition_count() const { return partition_count_; }
  // Memory held by all logs (segments and indexes) and by the segments they let go that
  // queued responses still pin; its bound is ClusterConfig::log_memory_bytes.
  [[nodiscard]] std::int64_t log_memory_used() const {
    return log_memory_used_ + released_->bytes();
  }
  // The segments logs let go that queued responses still pin.
  [[nodiscard]] const ReleasedSegmentMemory& released_segments() const { return *released_; }

  // The log directory that keeps the logs on disk (nullptr: in memory). Topics created,
  // grown, configured or deleted from now on change it; appends follow its flush policy.
  // It must outlive the Cluster, or be replaced first; set it before any topic exists or
  // restore() them through it.
  void set_log_directory(LogDirectory* directory) { log_directory_ = directory; }
  [[nodiscard]] LogDirectory* log_directory() const { return log_directory_; }

  // Recovery (LogDirectory::restore): topic `name` as it was saved, with id `id` (a new one
  // when zero or taken), `partitions` partitions, `config` resolved from `set_configs`, and
  // `assignment` when it still fits the brokers (else Kafka's placement); its logs empty
  // for the caller to fill, then finish_restore(). Returns nullptr, logging why, when the
  // topic cannot exist here (an illegal name, a limit now lower).
  StoredTopic* restore_topic(std::string_view name, const protocol::Uuid& id,
                             std::int32_t partitions, const TopicConfig& config,
                             TopicConfigValues set_configs, bool internal,
                             const ReplicaAssignment& assignment);
  // Counts the restored logs of `topic` in log_memory_used() and applies its segment config.
  void finish_restore(StoredTopic& topic);

  // The controller told of appends to replicated partitions and of new partitions (nullptr:
  // none; one broker). It must outlive the Cluster, or be replaced first.
  void set_replication(ReplicationController* replication) { replication_ = replication; }

  // Tells `observer` (nullptr: no one) of every topic created or deleted from now on. It must
  // outlive the Cluster, or be replaced first.
  void set_observer(TopicObserver* observer) { observer_ = observer; }

  // Whether `name` is a legal Kafka topic name: 1-249 characters of [a-zA-Z0-9._-], and
  // neither "." nor "..".
  static bool is_valid_topic_name(std::string_view name);

 private:
  // Evicts the oldest segments of all logs until `needed` more bytes fit; false if they
  // cannot.
  bool make_room(std::int64_t needed);
  // For messages: how much of the share released segments still hold, or "" if none.
  [[nodiscard]] std::string pinned_note() const;
  // Gives partitions [first, end) of `topic` their replicas: `assignment`, or Kafka's
  // placement with `replication_factor`.
  void place(StoredTopic& topic, std::size_t first, std::int32_t replication_factor,
             const ReplicaAssignment& assignment);
  // Logs what evictions dropped since the last line, at most once per second.
  void report_evictions(bool force);
  // Logs a batch the disk refused, at most one line per second.
  void report_storage_error(const StoredTopic& topic, std::int32_t partition,
                            const std::system_error& error);
  // A new random topic id, never zero or taken.
  protocol::Uuid new_topic_id();
  // Keeps partitions [first, end) of `topic` in the log directory, if there is one; false
  // (logged) when it cannot.
  bool attach_files(StoredTopic& topic, std::size_t first);

  ClusterConfig config_;
  DynamicBrokerConfig dynamic_{config_.topic_defaults};
  std::map<std::string, std::unique_ptr<StoredTopic>, std::less<>> topics_;
  std::map<protocol::Uuid, StoredTopic*> topics_by_id_;
  std::mt19937_64 topic_id_random_{std::random_device{}()};
  std::uint64_t metadata_version_ = 0;
  std::int64_t partition_count_ = 0;
  std::int64_t log_memory_used_ = 0;  // sum of memory_bytes() of every log
  // Shared with the released segments, which may outlive the Cluster in a response.
  std::shared_ptr<ReleasedSegmentMemory> released_ = std::make_shared<ReleasedSegmentMemory>();
  // Segments in creation order with their log, to evict the oldest first. An entry is stale
  // once its segment was dropped (its log's first_segment_sequence() is then larger);
  // delete_topic() removes the entries of the deleted logs.
  std::deque<std::pair<std::uint64_t, BatchLog*>> segments_by_age_;
  std::uint64_t next_segment_sequence_ = 1;
  DroppedSegments evicted_since_report_;
  TopicObserver* observer_ = nullptr;             // not owned
  ReplicationController* replication_ = nullptr;  // not owned
  LogDirectory* log_directory_ = nullptr;         // not owned
  std::chrono::steady_clock::time_point last_eviction_report_{};
  std::chrono::steady_clock::time_point last_storage_error_report_{};
  std::size_t storage_errors_since_report_ = 0;
};

}  // namespace kgroups::broker
