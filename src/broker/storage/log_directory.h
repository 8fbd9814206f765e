// SPDX-License-Identifier: Apache-2.0
//
// LogDirectory: the broker's log directory (--log-dirs), in Kafka's layout, and what keeps
// it true (docs/STORAGE.md):
// - meta.properties (cluster and node id) and a `.lock` held while the broker runs, so that
//   two brokers never share one directory;
// - a folder per partition (`<topic>-<partition>`, with partition.metadata naming the topic
//   id), whose BatchLog keeps its segments there (PartitionFiles, FileSegmentBytes);
// - kgroups-metadata.json: the topics (ids, partition counts, configs, replicas), which Kafka
//   keeps in its metadata log;
// - kgroups-producer-ids.json: the last block of producer ids saved for issuing (Kafka keeps
//   its ProducerIdsRecord in the metadata log), so a restart never issues an id twice;
// - recovery-point-offset-checkpoint and log-start-offset-checkpoint, and each partition's
//   leader-epoch-checkpoint, written every checkpoint interval and at a clean stop;
// - the flush policy (flush.messages, flush.ms).
// restore() brings everything back at start: it completes or undoes the log cleaner's swaps,
// scans the segments (checking every batch's CRC beyond the recovery point), cuts a torn or
// corrupt tail with a log line saying what was cut, rebuilds missing or wrong indexes, and
// rebuilds producer and transaction state from the batches.
// Not thread-safe: the broker's network thread owns it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "broker/config/topic_config.h"

namespace kgroups::broker {

class BatchLog;
class Cluster;
class ProducerRegistry;
struct StoredTopic;

struct LogDirectoryOptions {
  std::filesystem::path path;
  std::string cluster_id;
  std::int32_t node_id = 0;
};

// What restore() found and did.
struct RecoveryReport {
  std::size_t topics = 0;
  std::size_t partitions = 0;
  std::size_t segments = 0;
  std::size_t batches = 0;
  std::int64_t bytes = 0;           // bytes of the batches kept
  std::int64_t bytes_checked = 0;   // bytes whose CRC was checked (beyond recovery points)
  std::size_t truncations = 0;      // torn or corrupt tails cut
  std::int64_t bytes_cut = 0;       // bytes they held (preallocated zeros not counted)
  std::size_t indexes_rebuilt = 0;  // segments whose .index or .timeindex were (re)written
  std::size_t swaps_completed = 0;  // the cleaner's .swap files installed
  std::size_t producers = 0;        // producer ids found in the logs
  double milliseconds = 0;
  [[nodiscard]] std::string describe() const;
};

class LogDirectory {
 public:
  // Opens `options.path`, creating it (and meta.properties) if needed, and locks it. Throws
  // std::runtime_error saying what is wrong (not a folder, not writable, in use by another
  // broker, meta.properties unreadable).
  explicit LogDirectory(LogDirectoryOptions options);
  ~LogDirectory();
  LogDirectory(const LogDirectory&) = delete;
  LogDirectory& operator=(const LogDirectory&) = delete;
  LogDirectory(LogDirectory&&) = delete;
  LogDirectory& operator=(LogDirectory&&) = delete;

  [[nodiscard]] const std::filesystem::path& path() const { return options_.path; }

  // Gives partitions [first, end) of `topic` their folders (with partition.metadata) and
  // keeps their logs there. Throws std::system_error.
  void add_partitions(StoredTopic& topic, std::size_t first);
  // Deletes the folders of `topic`'s partitions.
  void remove_topic(const StoredTopic& topic);
  // The topics changed (created, grown, deleted, configured): kgroups-metadata.json is
  // written again before the next append and at the next tick.
  void topics_changed() { topics_dirty_ = true; }
  // Writes kgroups-metadata.json if the topics changed since it was last written.
  void save_topics(const Cluster& cluster);

  // At start, before anything else uses `cluster`: the topics and their logs as they were,
  // with the producer ids their batches name registered in `producers`, and `producers`
  // issuing new ids past every id issued before, from blocks saved here first. This must
  // outlive `producers`' issuing.
  RecoveryReport restore(Cluster& cluster, ProducerRegistry& producers);
  // Saves that producer ids [block_start, block_end) may be issued (fsync'd before it
  // returns). False, with a log line, when it cannot be written.
  bool save_producer_id_block(std::int64_t block_start, std::int64_t block_end);

  // After `records` records were appended to `log` of a topic configured `config`: when
  // flush.messages is reached, marks the log for the next group flush and calls the
  // `flush_requested` callback (GroupFlush::schedule), or without one flushes at once.
  void after_append(BatchLog& log, const TopicConfig& config, std::int64_t records,
                    std::int64_t now_ms);
  void on_flush_requested(std::function<void()> callback) {
    on_flush_requested_ = std::move(callback);
  }
  // A group flush: flushes every log marked by after_append since the last one (a list,
  // not a scan: the work follows the partitions written). Returns the logs flushed.
  std::size_t flush_requested();
  // Whether `log` waits for a group flush.
  [[nodiscard]] static bool awaits_flush(const BatchLog& log);
  // The flush scheduler's tick: flushes every log whose oldest unflushed record is flush.ms
  // old, and writes kgroups-metadata.json if it changed. Returns the logs flushed.
  std::size_t flush_due(const Cluster& cluster, std::int64_t now_ms);
  // Writes the recovery points, log start offsets and leader epochs that changed.
  void write_checkpoints(const Cluster& cluster);
  // A clean stop: flushes every log, closes the active segments (files cut to their
  // batches, indexes written) and writes the metadata and checkpoints.
  void close(Cluster& cluster);

 private:
  // Restores one partition's folder into `log`.
  void restore_partition(BatchLog& log, const std::filesystem::path& folder,
                         std::int64_t recovery_point, std::int64_t log_start,
                         RecoveryReport& report);
  void write_if_changed(const std::string& file, const std::string& contents);
  // The end (exclusive) of the last block of producer ids saved; 0 if none was. Throws
  // std::runtime_error if the file is unreadable.
  [[nodiscard]] std::int64_t saved_producer_id_block_end() const;

  LogDirectoryOptions options_;
  int lock_fd_ = -1;
  bool topics_dirty_ = true;
  std::function<void()> on_flush_requested_;
  std::vector<BatchLog*> marked_;  // logs awaiting the next group flush; remove_topic drops its own
  std::map<std::string, std::string, std::less<>> written_;  // file name -> contents written
};

}  // namespace kgroups::broker
