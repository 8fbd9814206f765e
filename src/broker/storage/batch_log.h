// SPDX-License-Identifier: Apache-2.0
//
// BatchLog: the record batches of one partition, stored exactly as producers sent them
// (magic 2, compressed or not) except for the base offset, which the log writes in. The CRC
// does not cover the base offset, so stored batches stay valid without recomputing it.
//
// Batches live in segments that never move: the first is small (kMinSegmentBytes) and each
// new one doubles, up to the log's segment limit, so a near-empty partition costs about a
// kilobyte; a batch larger than the limit gets a segment of its own. Segment bytes
// (SegmentBytes) come pre-faulted from the process-wide chunk supply, so appends take no
// page faults, and go back to it, warm, when the segment and every response pinning it are
// gone. Retention and the
// memory budget drop whole segments from the front, which moves the log start offset;
// DeleteRecords (delete_records_before) moves it to any offset up to the high watermark,
// dropping the segments wholly below it, so it may fall inside a batch (as Kafka allows).
//
// Kafka's segments (what segment.bytes and segment.ms roll, and what compaction calls closed)
// are separate from these memory chunks: with a roll policy (set_segment_roll(), set for
// compacted topics), the active segment starts at active_segment_start() and rolls, forcing a
// new chunk, once segment.bytes were appended to it or its first batch is segment.ms old; a
// chunk is closed when it lies wholly before active_segment_start(). Without a policy every
// chunk but the last is closed. The log cleaner (log_cleaner.h) rewrites closed chunks in
// place (replace_segments()): batches keep their offsets, so offsets may then have gaps, and
// batches_from() serves the batch holding the next offset kept.
//
// DeleteRecords may also move the log start offset into a batch.
// transactions() is the partition's transaction index (PartitionTransactions): the log tells
// it when its start offset moves; whoever appends transactional batches and markers tells it
// about them.
//
// Invariants: batches are in offset order, contiguous until cleaned (each base offset is the
// previous batch's last offset + 1, or larger after cleaning); every retained offset is
// >= log_start_offset() (== high_watermark() when the log is empty); the high watermark is the
// last batch's last offset + 1. Views returned by batches_from() stay valid until a segment is
// dropped or replaced (drop_*(), evict_oldest_segment(), replace_segments()): callers use them
// before anything else runs, or pin the segments they lie in (pin_segments()), which keeps
// their bytes (not the views' offsets or timestamps) valid for as long as the pins are held.
// With a log directory (attach_files()), segments are files there (FileSegmentBytes, Kafka's
// layout) instead of memory: their bytes count nothing in memory_bytes(), each segment is a
// Kafka segment of up to segment.bytes, dropping a segment deletes its files, and an append
// the disk has no room for throws std::system_error and stores nothing. restore_segment()
// and finish_restore() give a log back the segments recovery found.
// Not thread-safe: the broker's single network thread owns every BatchLog.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "broker/config/topic_config.h"
#include "broker/storage/partition_files.h"
#include "broker/storage/partition_replicas.h"
#include "broker/storage/partition_transactions.h"
#include "broker/storage/producer_state.h"
#include "broker/storage/released_segment_memory.h"
#include "broker/storage/segment_bytes.h"
#include "broker/storage/segment_pins.h"

namespace kgroups::broker {

// One stored batch: where its bytes are and which offsets it holds.
struct StoredBatch {
  std::int64_t base_offset = 0;            // offset of the batch's first record
  std::int64_t last_offset = 0;            // offset of the batch's last record (inclusive)
  std::int64_t max_timestamp = 0;          // the newest record timestamp in the batch, in ms
  std::int64_t segment_max_timestamp = 0;  // the newest in its segment up to this batch, ms
  const std::uint8_t* data = nullptr;      // the whole batch, base offset already written
  std::size_t size_bytes = 0;              // bytes of the whole batch, from the baseOffset field on

  [[nodiscard]] std::span<const std::uint8_t> bytes() const { return {data, size_bytes}; }
};

// One memory chunk of the log, as the cleaner sees it.
struct SegmentView {
  std::int64_t base_offset = 0;  // first offset the segment covers (its first batch's, or less)
  std::int64_t end_offset = 0;   // the next segment's base offset, or the high watermark
  std::span<const StoredBatch> batches;
  std::size_t used_bytes = 0;           // bytes of its batches
  std::int64_t max_timestamp = -1;      // newest record timestamp (or append time), ms
  const SegmentBytes* bytes = nullptr;  // its memory: tells one segment from another
};

// One segment as the console shows it.
struct SegmentSummary {
  std::int64_t base_offset = 0;  // its file's name in a log directory
  std::int64_t end_offset = 0;   // the next segment's base offset, or the log end
  std::size_t bytes = 0;         // bytes of its batches
  std::size_t batches = 0;
  bool active = false;   // the segment appends go to
  bool cleaned = false;  // wholly before the cleaner's first dirty offset
};

// A closed segment rewritten by the cleaner: its new bytes and the batches in them.
struct CleanedSegment {
  std::shared_ptr<SegmentBytes> bytes;  // may be null when `batches` is empty
  std::size_t size_bytes = 0;           // bytes used in `bytes` (its capacity is allocated)
  std::vector<StoredBatch> batches;     // data pointers into `bytes`, in offset order
};

// Where compaction stands in a log: what the cleaner has already deduplicated.
struct CompactionProgress {
  std::int64_t first_dirty_offset = 0;  // records before it were cleaned against a newer map
  // The earliest delete horizon (ms) of a kept tombstone: cleaning after it removes them.
  std::int64_t next_delete_horizon_ms = std::numeric_limits<std::int64_t>::max();
};

class BatchLog {
 public:
  static constexpr std::size_t kMinSegmentBytes = 1024;
  static constexpr std::size_t kMaxSegmentBytes = std::size_t{1} << 20;
  static constexpr std::size_t kMaxFileSegmentBytes = std::size_t{1} << 30;
  // The most batches one truncation reads back to rebuild producer state (bounds the work an
  // election does per partition).
  static constexpr std::size_t kProducerRefillBatches = 4096;

  BatchLog() = default;
  BatchLog(BatchLog&&) noexcept = default;
  BatchLog& operator=(BatchLog&&) = delete;
  BatchLog(const BatchLog&) = delete;
  BatchLog& operator=(const BatchLog&) = delete;
  // Lets every segment go through SegmentBytes::release_from_log().
  ~BatchLog();

  // Where the segments this log lets go while responses pin them are counted (the Cluster's;
  // null: nowhere). Every drop, the cleaner's replace_segments() and the log's destruction
  // let segments go through SegmentBytes::release_from_log().
  void set_released_segment_memory(std::shared_ptr<ReleasedSegmentMemory> released) {
    released_ = std::move(released);
  }

  // Keeps this log's segments in `files` from now on; call it before the first append.
  void attach_files(std::shared_ptr<PartitionFiles> files) { files_ = std::move(files); }
  // The log's folder in the log directory, or nullptr (in memory).
  [[nodiscard]] PartitionFiles* files() const { return files_.get(); }
  // Recovery: appends a segment found on disk, `used` bytes of `bytes` based at
  // `base_offset`, holding `batches` (in offset order, after every batch held; data pointers
  // into `bytes`). Batches without timestamps count as of `fallback_time_ms` for retention.
  void restore_segment(std::shared_ptr<SegmentBytes> bytes, std::int64_t base_offset,
                       std::size_t used, std::span<const StoredBatch> batches,
                       std::int64_t fallback_time_ms);
  // Recovery done: the log starts at its first segment's base offset (delete_records_before()
  // moves it on to a checkpointed log start offset), or, without segments, starts and ends
  // at `log_start_offset`; the restored segments are closed.
  void finish_restore(std::int64_t log_start_offset);
  // Flushes every segment that may hold unflushed batches (fdatasync) and moves the recovery
  // point to the log end; nothing in memory.
  void flush();
  // Closes the active segment (a clean stop): its file is cut to its batches and its indexes
  // written; the next append opens a new segment.
  void close_active_segment();

  // Copies `batch`, a magic-2 record batch that the caller has already validated, writes the
  // high watermark into its base offset, and advances the high watermark by
  // last_offset_delta + 1. `max_timestamp` is the newest record timestamp (ms), or -1 if the
  // records have none; `now_ms` (wall clock) then stands in for it in retention by time.
  // When the header's maxTimestamp differs from it, the stored copy gets `max_timestamp`
  // and a new CRC (Kafka's LogValidator does the same).
  // `sequence` numbers the segment this append may open (the caller's global counter, so
  // the oldest segments of all logs can be found). With TimestampType::kLogAppendTime the
  // stored copy is stamped with `now_ms` instead (write_log_append_time), and `max_timestamp`
  // is ignored. Returns the base offset given to the batch. Requires last_offset_delta >= 0
  // and batch.size() >= the batch header size. With a log directory, throws
  // std::system_error when the disk cannot take the batch; nothing changes then.
  std::int64_t append(std::span<const std::uint8_t> batch, std::int32_t last_offset_delta,
                      std::int64_t max_timestamp, std::int64_t now_ms = 0,
                      std::uint64_t sequence = 0,
                      TimestampType timestamp_type = TimestampType::kCreateTime);

  // Bytes of memory the next append of a `batch_bytes` batch at `now_ms` would allocate: a
  // new segment when the batch does not fit in the current one or the active segment rolls
  // (none in a log directory), plus index growth.
  [[nodiscard]] std::size_t bytes_needed_to_append(std::size_t batch_bytes,
                                                   std::int64_t now_ms = 0) const;

  // The largest segment this log opens (a batch larger than it gets its own); at least
  // kMinSegmentBytes and at most kMaxSegmentBytes in memory, at most kMaxFileSegmentBytes in
  // a log directory (where each segment is that large, as Kafka's segment.bytes).
  void set_segment_limit(std::size_t bytes);
  [[nodiscard]] std::size_t segment_limit() const { return segment_limit_; }
  // segment.bytes for a log in a log directory: each segment file holds up to this much
  // (at least kMinSegmentBytes, at most kMaxFileSegmentBytes; a larger batch gets its own).
  void set_file_segment_limit(std::size_t bytes);

  // Kafka segment rolling (compacted topics): the active segment rolls when appending a batch
  // would take it past `roll_bytes` (it holds at least one batch), or when its first batch was
  // appended `roll_ms` or more before the append (the append's now_ms). 0 disables each.
  void set_segment_roll(std::size_t roll_bytes, std::int64_t roll_ms);
  // The first offset of the active (Kafka) segment: segments wholly before it are closed.
  [[nodiscard]] std::int64_t active_segment_start() const { return active_segment_start_; }

  // The segments, oldest first: at most `limit` of them, the newest ones.
  [[nodiscard]] std::vector<SegmentSummary> segment_summaries(std::size_t limit) const;

  // The segments that lie wholly before active_segment_start(), oldest first (the index of a
  // view is the segment's index for replace_segments()). Views are valid as batches_from()'s.
  [[nodiscard]] std::vector<SegmentView> closed_segments() const;

  // Replaces closed segments [first, first + cleaned.size()) with `cleaned`, in order. Each
  // cleaned segment must hold a subset of the offsets of the one it replaces, in the same
  // order; one left without batches is removed and the next segment then covers its offsets,
  // so log_start_offset() and the high watermark never move. Returns the change of
  // memory_bytes() (negative when memory was freed).
  std::int64_t replace_segments(std::size_t first, std::vector<CleanedSegment> cleaned);

  // The cleaner's progress in this log (log_cleaner.h reads and advances it).
  [[nodiscard]] const CompactionProgress& compaction() const { return compaction_; }
  CompactionProgress& compaction() { return compaction_; }

  // The first offset held (0 until retention or eviction drops a segment).
  [[nodiscard]] std::int64_t log_start_offset() const { return log_start_offset_; }
  // The offset the next appended record gets: the leader's log end offset.
  [[nodiscard]] std::int64_t log_end_offset() const { return end_offset_; }
  // Kafka's high watermark: every offset below it is on every in-sync replica, and consumers
  // read only below it. With one replica (or an ISR of the leader alone, see
  // set_high_watermark_follows_end()) it is the log end offset; otherwise replication moves
  // it (advance_high_watermark()). Always a batch boundary, in
  // [log_start_offset(), log_end_offset()].
  [[nodiscard]] std::int64_t high_watermark() const { return high_watermark_; }
  // Whether every append moves the high watermark to the log end at once (the leader is the
  // only in-sync replica). Turning it on moves the high watermark to the end now.
  void set_high_watermark_follows_end(bool follows) {
    high_watermark_follows_end_ = follows;
    if (follows) high_watermark_ = end_offset_;
  }
  [[nodiscard]] bool high_watermark_follows_end() const { return high_watermark_follows_end_; }
  // Moves the high watermark up to `offset` (at most the log end); never down.
  void advance_high_watermark(std::int64_t offset) {
    high_watermark_ = std::max(high_watermark_, std::min(offset, end_offset_));
  }
  // A new leader's truncation (an unclean election, or a leader that lacks what the old one
  // appended): drops every batch at or after `offset`, a batch boundary in
  // [high_watermark() of the new leader, log_end_offset()] or lower after an unclean election,
  // and forgets the producer and transaction state of those batches (a producer's state
  // is then its newest batches the log still holds, as Kafka rebuilds it from the log). The high
  // watermark follows down when it was above. Segments keep their bytes (a queued response may pin
  // them); the next append opens a new segment. Returns the number of records dropped.
  std::int64_t truncate_to(std::int64_t offset);
  // The last stable offset: the first offset of the oldest open transaction (at least the log
  // start offset), else the high watermark. read_committed consumers read only below it.
  [[nodiscard]] std::int64_t last_stable_offset() const {
    return std::max(transactions_.last_stable_offset(high_watermark_), log_start_offset_);
  }
  // The partition's transaction index. Anything that moves log_start_offset() other than
  // the drop_*() and evict_*() methods below must call on_log_start_moved() on it.
  [[nodiscard]] PartitionTransactions& transactions() { return transactions_; }
  [[nodiscard]] const PartitionTransactions& transactions() const { return transactions_; }
  // Bytes of all retained batches.
  [[nodiscard]] std::size_t size_bytes() const { return size_bytes_; }
  // Number of retained batches.
  [[nodiscard]] std::size_t batch_count() const { return index_.size() - index_begin_; }
  // Number of segments.
  [[nodiscard]] std::size_t segment_count() const { return segments_.size(); }
  // Memory the log holds: segment capacity plus its index.
  [[nodiscard]] std::size_t memory_bytes() const {
    return segment_bytes_ + index_.capacity() * sizeof(StoredBatch);
  }
  // The creation sequence of the oldest segment, or the largest value when there is none.
  [[nodiscard]] std::uint64_t first_segment_sequence() const {
    return segments_.empty() ? std::numeric_limits<std::uint64_t>::max()
                             : segments_.front().sequence;
  }

  // The batches from the one that holds `offset` to the end of the log, in offset order.
  // Empty when offset is outside [log_start_offset(), high_watermark()).
  [[nodiscard]] std::span<const StoredBatch> batches_from(std::int64_t offset) const;

  // Adds to `pins` the segments holding the batches whose base offsets are in
  // [first_base_offset, last_base_offset] (batches batches_from() returned), oldest first.
  void pin_segments(std::int64_t first_base_offset, std::int64_t last_base_offset,
                    SegmentPins& pins) const;

  // The first batch holding a record whose timestamp is >= timestamp_ms, or nullptr if there
  // is none: a scan of segment maxima, then a binary search inside one segment.
  [[nodiscard]] const StoredBatch* first_batch_at_or_after(std::int64_t timestamp_ms) const;

  // The newest record timestamp of the retained batches (ListOffsets' max timestamp), or -1
  // if none has one: per segment a binary search for the batch that set its maximum.
  [[nodiscard]] std::int64_t max_record_timestamp() const;

  // Retention by time: drops the segments, oldest first, whose newest record is older than
  // `cutoff_ms`. Retention by size: drops the oldest segments while the rest still holds at
  // least `retention_bytes`. Evicting drops the oldest segment whatever it holds. Each
  // returns the memory freed (as memory_bytes() counts it).
  std::size_t drop_segments_older_than(std::int64_t cutoff_ms);
  std::size_t drop_segments_beyond_size(std::int64_t retention_bytes);
  std::size_t evict_oldest_segment();

  // DeleteRecords: moves the log start offset up to `offset` (nothing if it is not above it),
  // dropping every segment whose batches all end below it; the batch holding `offset` stays,
  // and reads below the new start are out of range. Returns the memory freed. Requires
  // offset <= high_watermark().
  std::size_t delete_records_before(std::int64_t offset);

  // Which brokers hold this partition, who leads, the ISR and the followers' progress
  // (ReplicationController moves them).
  PartitionReplicas& replicas() { return replicas_; }
  [[nodiscard]] const PartitionReplicas& replicas() const { return replicas_; }

  // What idempotent and transactional producers wrote here last (duplicate detection and
  // sequence checks; ProducerRegistry bounds it).
  ProducerStateTable& producers() { return producers_; }
  [[nodiscard]] const ProducerStateTable& producers() const { return producers_; }

 private:
  struct Segment {
    std::shared_ptr<SegmentBytes> bytes;  // shared with the responses that pin it
    std::size_t capacity = 0;             // bytes it can hold
    std::size_t memory = 0;               // bytes of memory it holds (0 for a file)
    std::size_t used = 0;                 // bytes of batches stored
    std::size_t batch_count = 0;          // batches stored in it
    std::int64_t max_timestamp = -1;      // newest record timestamp (or append time), ms
    std::uint64_t sequence = 0;           // creation order among all logs of the broker
    std::int64_t base_offset = 0;         // first offset covered (<= its first batch's)
  };

  // The capacity of the next segment for a batch of `batch_bytes`.
  [[nodiscard]] std::size_t next_segment_capacity(std::size_t batch_bytes) const;
  // A new segment for offsets from end_offset_ with room for a `batch_bytes` batch: in
  // memory, or a file with its space reserved. Throws (std::bad_alloc, std::system_error).
  [[nodiscard]] Segment open_segment(std::size_t batch_bytes) const;
  // Whether appending a `batch_bytes` batch at `now_ms` rolls the active Kafka segment.
  [[nodiscard]] bool rolls_before(std::size_t batch_bytes, std::int64_t now_ms) const;
  // Removes segments_.front() and its batches; returns the memory freed.
  std::size_t drop_front_segment();
  // After a truncation: gives the producers that lost batches (`lacking`) their newest
  // batches still in the log again, read from the batches' headers newest first, at most
  // kProducerRefillBatches of them (a producer not found among those may go on at any
  // sequence).
  void refill_producer_state(std::vector<std::int64_t> lacking);

  std::vector<Segment> segments_;   // oldest first
  std::vector<StoredBatch> index_;  // ordered by base_offset; live from index_begin_
  std::size_t index_begin_ = 0;     // index_ entries before this were dropped
  std::size_t segment_bytes_ = 0;   // sum of segments' memory
  std::size_t segment_limit_ = kMaxSegmentBytes;
  std::size_t file_segment_limit_ = kMaxFileSegmentBytes;  // segment.bytes in a log directory
  std::shared_ptr<PartitionFiles> files_;                  // see attach_files()
  std::int64_t log_start_offset_ = 0;
  std::int64_t end_offset_ = 0;      // the log end offset: the next offset appended
  std::int64_t high_watermark_ = 0;  // <= end_offset_; see high_watermark()
  bool high_watermark_follows_end_ = true;
  bool seal_last_segment_ = false;  // truncation: the next append opens a new segment
  std::size_t size_bytes_ = 0;      // bytes of retained batches
  ProducerStateTable producers_;
  PartitionTransactions transactions_;
  PartitionReplicas replicas_;
  // Kafka segment rolling: 0 disables; see set_segment_roll().
  std::size_t roll_bytes_ = 0;
  std::int64_t roll_ms_ = 0;
  std::int64_t active_segment_start_ = 0;  // base offset of the active Kafka segment
  std::size_t active_segment_bytes_ = 0;   // bytes appended to it
  std::int64_t active_segment_first_append_ms_ = 0;
  CompactionProgress compaction_;
  std::shared_ptr<ReleasedSegmentMemory> released_;  // see set_released_segment_memory()
};

}  // namespace kgroups::broker
