// SPDX-License-Identifier: Apache-2.0
//
// LogCleaner: log compaction (cleanup.policy=compact) of the Cluster's partitions, after
// Kafka's LogCleaner. A partition is due when the dirty part of its closed segments (those
// written since its last cleaning, see BatchLog::compaction()) is at least
// min.cleanable.dirty.ratio of them, when its oldest dirty record is max.compaction.lag.ms
// old, or when a kept tombstone's delete horizon has passed. Cleaning one partition:
// 1. a map of each key's latest offset is built from the dirty records to the end of the log
//    (the active segment included), within --log-cleaner-dedupe-buffer-bytes (past it the map
//    stops and later records count as dirty still);
// 2. every closed segment that min.compaction.lag.ms allows (its newest record older than the
//    lag) is rewritten, keeping a record unless the map holds a later offset for its key, it
//    has no key, or it is a tombstone whose batch's delete horizon has passed. A batch that
//    keeps a tombstone gets a delete horizon of now + delete.retention.ms the first time it is
//    cleaned (KIP-534), so tombstones live at least that long after their first cleaning.
// Offsets never change (batches_from() serves gaps); an emptied batch is dropped, except
// the last one of a producer, kept as a header for its sequence state. Control batches and
// transactional batches are kept whole and not mapped: aborted records and markers are not
// cleaned away yet, although the log's PartitionTransactions index now knows the aborts.
// Work on the broker's thread is bounded, by what the records unpack to and by time: each
// run_pass() reads about `bytes_per_pass` unpacked bytes, or works `max_pass_time`, then
// returns; the next pass resumes where it stopped (inside a segment being rewritten, too),
// one partition at a time. A batch whose records would take more than `max_batch_bytes` to
// unpack and index (its unpacked bytes plus sizeof(RecordEntry) per record) is neither
// mapped nor rewritten but kept whole: compaction may keep more than the latest record of a
// key, never less. The key map stops growing at `max_map_bytes`, checked at every record.
// The working memory (the map, the unpacked batch, its index, the re-encoded records) is
// thus bounded by the options, which the memory plan reserves (memory_plan.h).
// Not thread-safe: runs on the broker's network thread (log_cleaner_pass,
// storage/periodic_passes.h).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "broker/config/topic_config.h"
#include "broker/storage/batch_log.h"
#include "broker/storage/cluster.h"
#include "broker/storage/segment_pins.h"
#include "protocol/record_batch.h"
#include "protocol/record_batch_rewriter.h"
#include "protocol/uuid.h"

namespace kgroups::broker {

struct LogCleanerOptions {
  std::size_t bytes_per_pass = std::size_t{1} << 20;   // unpacked bytes read by one run_pass()
  std::size_t max_map_bytes = std::size_t{16} << 20;   // keys + overhead of the key map
  std::size_t max_batch_bytes = std::size_t{8} << 20;  // one batch unpacked and indexed
  std::chrono::milliseconds max_pass_time{50};         // wall time of one run_pass()
};

// What one run_pass() did.
struct CleanerPass {
  std::size_t bytes_read = 0;          // unpacked batch bytes read, mapping and cleaning
  std::size_t segments_cleaned = 0;    // segments rewritten
  std::size_t partitions_cleaned = 0;  // partitions whose cleaning finished in this pass
  std::int64_t memory_freed = 0;       // bytes of log memory given back
  // Batches over max_batch_bytes (neither mapped nor cleaned) met by the partitions whose
  // cleaning finished in this pass.
  std::size_t batches_kept_whole = 0;
  bool more_work = false;  // the budget ran out with a cleaning under way
};

class LogCleaner {
 public:
  explicit LogCleaner(LogCleanerOptions options);

  // Advances the cleaning under way, then starts the next due partition (round robin over the
  // compacted topics), until about bytes_per_pass bytes were read. `now_ms`: wall clock.
  CleanerPass run_pass(Cluster& cluster, std::int64_t now_ms);

  // Whether `log` of a topic with `config` is due for cleaning at `now_ms`.
  [[nodiscard]] static bool is_due(const BatchLog& log, const TopicConfig& config,
                                   std::int64_t now_ms);

  // The dirty part of `log`'s cleanable bytes (0 to 1): closed segments past the first dirty
  // offset, over all closed segments that min.compaction.lag.ms lets be cleaned.
  [[nodiscard]] static double dirty_ratio(const BatchLog& log, const TopicConfig& config,
                                          std::int64_t now_ms);

 private:
  // Hashes keys so that the map is searched with string_views (no copy per lookup).
  struct KeyHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view key) const {
      return std::hash<std::string_view>{}(key);
    }
  };

  // One partition's cleaning, carried across passes.
  struct Job {
    std::string topic;
    protocol::Uuid topic_id{};
    std::int32_t partition = 0;
    bool mapping = true;                 // building the key map; then cleaning segments
    std::int64_t map_next_offset = 0;    // mapping resumes here
    std::int64_t map_end_offset = 0;     // the map covers offsets before this
    std::int64_t clean_end_offset = 0;   // segments starting before this are cleaned
    std::int64_t clean_next_offset = 0;  // cleaning resumes at the segment holding this
    std::unordered_map<std::string, std::int64_t, KeyHash, std::equal_to<>> latest_offset_by_key;
    std::size_t map_bytes = 0;
    std::unordered_map<std::int64_t, std::int64_t> last_offset_by_producer;
    std::int64_t next_delete_horizon_ms = 0;
    // The closed segment being rewritten, pinned so that its identity stays meaningful
    // across passes (a segment the log dropped or replaced meanwhile is started again), and
    // the next of its batches to clean; what was written so far is in written_ and placed_.
    const SegmentBytes* segment = nullptr;
    SegmentPins segment_pin;
    std::size_t next_batch = 0;
    std::size_t batches_kept_whole = 0;  // met while mapping or cleaning, over max_batch_bytes
  };

  // What one pass may still spend: unpacked bytes, and time until `deadline`, looked at
  // after every kTimeCheckBytes read (a clock read per small batch would cost more than the
  // batch in some virtual machines).
  struct Budget {
    static constexpr std::size_t kTimeCheckBytes = std::size_t{64} << 10;
    std::size_t bytes = 0;
    std::chrono::steady_clock::time_point deadline;
    std::size_t since_time_check = 0;

    [[nodiscard]] bool spent() const { return bytes == 0; }
    // Takes `read` bytes; ends the budget when the deadline has passed.
    void take(std::size_t read) {
      bytes -= std::min(bytes, read);
      since_time_check += read;
      if (since_time_check < kTimeCheckBytes) return;
      since_time_check = 0;
      if (std::chrono::steady_clock::now() >= deadline) bytes = 0;
    }
  };

  // The records of `batch` (parsed into rewriter_), or nullopt when it is a control or
  // transactional batch, does not parse, or is too large to unpack (counted in the job).
  // `unpacked` gets what reading it cost.
  std::optional<std::span<const protocol::RecordEntry>> read_records(
      const StoredBatch& batch, const protocol::RecordBatchHeader& header, std::size_t& unpacked);

  // The partition's log if the job's topic still exists and is compacted, else nullptr.
  static BatchLog* job_log(Cluster& cluster, const Job& job, const StoredTopic** topic);
  // Starts a job for the next due partition after the last one started; false if none is.
  bool start_next_job(Cluster& cluster, std::int64_t now_ms);
  // Spends budget on the job; true once it is finished.
  bool map_step(BatchLog& log, Budget& budget, CleanerPass& pass);
  bool clean_step(Cluster& cluster, BatchLog& log, const TopicConfig& config, std::int64_t now_ms,
                  Budget& budget, CleanerPass& pass);
  // Maps the keys of `records` of `batch` from the job's map_next_offset on; false when the
  // map filled up (map_end_offset then stops at the first record not mapped).
  bool map_records(const StoredBatch& batch, std::span<const protocol::RecordEntry> records);
  // Rewrites the batches of closed segment `segment` against the job's map, from the job's
  // next_batch on, into written_ and placed_; true once every batch is done.
  bool clean_batches(const SegmentView& segment, const TopicConfig& config, std::int64_t now_ms,
                     Budget& budget, CleanerPass& pass);
  // Rewrites one batch (or keeps it whole, or leaves it out) into written_ and placed_.
  void clean_batch(const StoredBatch& batch, const TopicConfig& config, std::int64_t now_ms,
                   std::size_t& unpacked);
  // The segment written_ and placed_ hold, in new segment bytes (a `.log.cleaned` file of
  // the segment based at `base_offset` when `log` keeps its segments in a log directory);
  // empties them. Throws std::system_error when the disk cannot take it.
  CleanedSegment finish_segment(const BatchLog& log, std::int64_t base_offset);

  LogCleanerOptions options_;
  protocol::RecordBatchRewriter rewriter_;
  std::optional<Job> job_;
  std::string last_topic_;  // round robin: the last partition started
  std::int32_t last_partition_ = -1;
  std::vector<std::uint8_t> keep_;     // per record of a batch: kept (1) or not (0)
  std::vector<std::uint8_t> written_;  // a segment being rewritten
  std::vector<std::pair<StoredBatch, std::size_t>> placed_;  // its batches, at their positions
};

}  // namespace kgroups::broker
