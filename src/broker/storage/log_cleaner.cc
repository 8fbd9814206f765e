// SPDX-License-Identifier: Apache-2.0
#include "broker/storage/log_cleaner.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <string_view>
#include <system_error>
#include <utility>

#include "broker/runtime/logger.h"
#include "protocol/record_batch.h"

namespace kgroups::broker {
namespace {

// Bytes a key map entry costs besides its key: node, hash bucket, offset.
constexpr std::size_t kMapEntryOverhead = 64;
constexpr std::int64_t kNever = std::numeric_limits<std::int64_t>::max();

std::string_view key_text(const protocol::ByteView& key) {
  return {reinterpret_cast<const char*>(key.data()), key.size()};
}

std::int64_t saturating_add(std::int64_t a, std::int64_t b) {
  std::int64_t sum = 0;
  return __builtin_add_overflow(a, b, &sum) ? kNever : sum;
}

// The closed segments that min.compaction.lag.ms lets be cleaned, and how dirty they are.
struct CleanableRange {
  std::size_t segments = 0;     // the first this many closed segments
  std::int64_t end_offset = 0;  // the offset after them
  std::size_t clean_bytes = 0;
  std::size_t dirty_bytes = 0;
  std::int64_t oldest_dirty_timestamp = -1;  // ms; -1 when unknown
};

CleanableRange cleanable_range(const BatchLog& log, const TopicConfig& config,
                               std::int64_t now_ms) {
  CleanableRange range;
  range.end_offset = log.log_start_offset();
  const std::int64_t first_dirty =
      std::max(log.compaction().first_dirty_offset, log.log_start_offset());
  for (const SegmentView& segment : log.closed_segments()) {
    if (config.min_compaction_lag_ms > 0 &&
        segment.max_timestamp > now_ms - config.min_compaction_lag_ms) {
      break;
    }
    if (segment.end_offset <= first_dirty) {
      range.clean_bytes += segment.used_bytes;
    } else {
      if (range.dirty_bytes == 0) {
        range.oldest_dirty_timestamp = segment.max_timestamp;
        for (const StoredBatch& batch : segment.batches) {
          if (batch.last_offset >= first_dirty && batch.max_timestamp >= 0) {
            range.oldest_dirty_timestamp = batch.max_timestamp;
            break;
          }
        }
      }
      range.dirty_bytes += segment.used_bytes;
    }
    ++range.segments;
    range.end_offset = segment.end_offset;
  }
  return range;
}

}  // namespace

LogCleaner::LogCleaner(LogCleanerOptions options)
    : options_(options), rewriter_(options.max_batch_bytes) {}

double LogCleaner::dirty_ratio(const BatchLog& log, const TopicConfig& config,
                               std::int64_t now_ms) {
  const CleanableRange range = cleanable_range(log, config, now_ms);
  const std::size_t total = range.clean_bytes + range.dirty_bytes;
  return total == 0 ? 0.0 : static_cast<double>(range.dirty_bytes) / static_cast<double>(total);
}

bool LogCleaner::is_due(const BatchLog& log, const TopicConfig& config, std::int64_t now_ms) {
  if (!config.cleanup_compact) return false;
  const CleanableRange range = cleanable_range(log, config, now_ms);
  if (range.segments > 0 && now_ms >= log.compaction().next_delete_horizon_ms) return true;
  if (range.dirty_bytes == 0) return false;
  const double ratio = static_cast<double>(range.dirty_bytes) /
                       static_cast<double>(range.clean_bytes + range.dirty_bytes);
  if (ratio >= config.min_cleanable_dirty_ratio) return true;
  return range.oldest_dirty_timestamp >= 0 &&
         now_ms - range.oldest_dirty_timestamp >= config.max_compaction_lag_ms;
}

BatchLog* LogCleaner::job_log(Cluster& cluster, const Job& job, const StoredTopic** topic_out) {
  StoredTopic* topic = cluster.find_topic(job.topic);
  if (topic == nullptr || topic->id != job.topic_id || !topic->config.cleanup_compact ||
      static_cast<std::size_t>(job.partition) >= topic->partitions.size()) {
    return nullptr;
  }
  *topic_out = topic;
  return &topic->partitions[static_cast<std::size_t>(job.partition)];
}

bool LogCleaner::start_next_job(Cluster& cluster, std::int64_t now_ms) {
  // Round robin: the first due partition after the last one started, else the first due.
  StoredTopic* first_topic = nullptr;
  std::int32_t first_partition = -1;
  StoredTopic* next_topic = nullptr;
  std::int32_t next_partition = -1;
  for (const auto& [name, topic] : cluster.topics()) {
    if (!topic->config.cleanup_compact) continue;
    for (std::size_t p = 0; p < topic->partitions.size(); ++p) {
      const auto partition = static_cast<std::int32_t>(p);
      const bool after = name > last_topic_ || (name == last_topic_ && partition > last_partition_);
      if (first_topic != nullptr && (!after || next_topic != nullptr)) continue;
      if (!is_due(topic->partitions[p], topic->config, now_ms)) continue;
      if (first_topic == nullptr) {
        first_topic = topic.get();
        first_partition = partition;
      }
      if (after && next_topic == nullptr) {
        next_topic = topic.get();
        next_partition = partition;
      }
    }
    if (next_topic != nullptr) break;
  }
  StoredTopic* topic = next_topic != nullptr ? next_topic : first_topic;
  const std::int32_t partition = next_topic != nullptr ? next_partition : first_partition;
  if (topic == nullptr) return false;
  const BatchLog& log = topic->partitions[static_cast<std::size_t>(partition)];
  Job job;
  job.topic = topic->name;
  job.topic_id = topic->id;
  job.partition = partition;
  job.map_next_offset = std::max(log.compaction().first_dirty_offset, log.log_start_offset());
  job.map_end_offset = log.high_watermark();
  job.clean_end_offset = cleanable_range(log, topic->config, now_ms).end_offset;
  job.clean_next_offset = log.log_start_offset();
  job.next_delete_horizon_ms = kNever;
  job_ = std::move(job);
  last_topic_ = topic->name;
  last_partition_ = partition;
  return true;
}

std::optional<std::span<const protocol::RecordEntry>> LogCleaner::read_records(
    const StoredBatch& batch, const protocol::RecordBatchHeader& header, std::size_t& unpacked) {
  unpacked = batch.size_bytes;
  if (header.is_control() || header.is_transactional()) return std::nullopt;
  // The index of its records alone would pass the bound: do not even unpack it.
  const auto records = static_cast<std::size_t>(std::max(header.record_count, 0));
  if (records > options_.max_batch_bytes / sizeof(protocol::RecordEntry)) {
    ++job_->batches_kept_whole;
    return std::nullopt;
  }
  const auto read = rewriter_.read(batch.bytes());
  if (!read) {
    // Unpacking stopped at the bound (or the batch does not parse): it is kept whole.
    if (header.compression() != protocol::Compression::kNone) ++job_->batches_kept_whole;
    return std::nullopt;
  }
  unpacked = std::max(unpacked, rewriter_.unpacked_bytes());
  if (rewriter_.unpacked_bytes() + read->size() * sizeof(protocol::RecordEntry) >
      options_.max_batch_bytes) {
    ++job_->batches_kept_whole;
    return std::nullopt;
  }
  return *read;
}

bool LogCleaner::map_records(const StoredBatch& batch,
                             std::span<const protocol::RecordEntry> records) {
  Job& job = *job_;
  for (const protocol::RecordEntry& record : records) {
    const std::int64_t offset = batch.base_offset + record.offset_delta;
    if (offset < job.map_next_offset || !record.key) continue;
    if (job.map_bytes >= options_.max_map_bytes) {
      job.map_end_offset = offset;  // this record and later ones stay dirty
      return false;
    }
    const std::string_view key = key_text(*record.key);
    const auto found = job.latest_offset_by_key.find(key);
    if (found != job.latest_offset_by_key.end()) {
      found->second = offset;
    } else {
      job.latest_offset_by_key.emplace(std::string(key), offset);
      job.map_bytes += key.size() + kMapEntryOverhead;
    }
  }
  return true;
}

bool LogCleaner::map_step(BatchLog& log, Budget& budget, CleanerPass& pass) {
  Job& job = *job_;
  while (job.map_next_offset < job.map_end_offset) {
    if (budget.spent()) return false;
    const auto batches = log.batches_from(std::max(job.map_next_offset, log.log_start_offset()));
    if (batches.empty()) break;
    bool full = false;
    for (const StoredBatch& batch : batches) {
      if (batch.base_offset >= job.map_end_offset) {
        job.map_next_offset = job.map_end_offset;
        break;
      }
      const auto header = protocol::parse_record_batch_header(batch.bytes());
      if (header && header->producer_id >= 0) {
        job.last_offset_by_producer[header->producer_id] = batch.last_offset;
      }
      std::size_t unpacked = batch.size_bytes;
      if (header) {
        const auto records = read_records(batch, *header, unpacked);
        if (records && !map_records(batch, *records)) full = true;
      }
      pass.bytes_read += unpacked;
      budget.take(unpacked);
      if (full) break;
      job.map_next_offset = batch.last_offset + 1;
      if (budget.spent()) break;
    }
    if (full) break;
    if (budget.spent() && job.map_next_offset < job.map_end_offset) return false;
  }
  job.mapping = false;
  return true;
}

void LogCleaner::clean_batch(const StoredBatch& batch, const TopicConfig& config,
                             std::int64_t now_ms, std::size_t& unpacked) {
  Job& job = *job_;
  const std::size_t at = written_.size();
  const auto keep_whole = [&] {
    written_.insert(written_.end(), batch.data, batch.data + batch.size_bytes);
    placed_.emplace_back(batch, at);
  };
  unpacked = batch.size_bytes;
  const auto header = protocol::parse_record_batch_header(batch.bytes());
  if (!header) return keep_whole();
  const auto records = read_records(batch, *header, unpacked);
  if (!records) return keep_whole();
  const std::int64_t new_horizon = saturating_add(now_ms, config.delete_retention_ms);
  const std::optional<std::int64_t> horizon = protocol::delete_horizon_ms(*header);
  keep_.assign(records->size(), 0);
  std::size_t kept = 0;
  bool tombstone_kept = false;
  for (std::size_t i = 0; i < records->size(); ++i) {
    const protocol::RecordEntry& record = (*records)[i];
    const std::int64_t offset = batch.base_offset + record.offset_delta;
    bool keep = true;
    if (offset < job.map_end_offset) {
      if (!record.key) {
        keep = false;  // a compacted topic cannot hold records without a key
      } else {
        const auto found = job.latest_offset_by_key.find(key_text(*record.key));
        if (found != job.latest_offset_by_key.end() && found->second > offset) {
          keep = false;
        } else if (!record.value) {
          keep = !horizon || now_ms < *horizon;
        }
      }
    }
    if (!keep) continue;
    keep_[i] = 1;
    ++kept;
    if (!record.value) tombstone_kept = true;
  }
  const bool set_horizon = tombstone_kept && !horizon;
  if (tombstone_kept) {
    job.next_delete_horizon_ms =
        std::min(job.next_delete_horizon_ms, set_horizon ? new_horizon : *horizon);
  }
  if (kept == records->size() && !set_horizon) return keep_whole();
  if (kept == 0) {
    // Kafka keeps the last batch of a producer (as a header) for its sequence state.
    const auto last = job.last_offset_by_producer.find(header->producer_id);
    const bool last_of_producer =
        header->producer_id >= 0 &&
        (last == job.last_offset_by_producer.end() || last->second == batch.last_offset);
    if (!last_of_producer) return;
  }
  rewriter_.write(batch.bytes(), keep_, set_horizon ? new_horizon : -1, written_);
  StoredBatch rewritten = batch;
  rewritten.size_bytes = written_.size() - at;
  if (batch.max_timestamp >= 0) {
    const auto written = std::span<const std::uint8_t>(written_).subspan(at);
    rewritten.max_timestamp = protocol::parse_record_batch_header(written)->max_timestamp;
  }
  placed_.emplace_back(rewritten, at);
}

bool LogCleaner::clean_batches(const SegmentView& segment, const TopicConfig& config,
                               std::int64_t now_ms, Budget& budget, CleanerPass& pass) {
  Job& job = *job_;
  while (job.next_batch < segment.batches.size()) {
    if (budget.spent()) return false;
    std::size_t unpacked = 0;
    clean_batch(segment.batches[job.next_batch], config, now_ms, unpacked);
    ++job.next_batch;
    pass.bytes_read += unpacked;
    budget.take(unpacked);
  }
  return true;
}

CleanedSegment LogCleaner::finish_segment(const BatchLog& log, std::int64_t base_offset) {
  CleanedSegment cleaned;
  cleaned.size_bytes = written_.size();
  if (!written_.empty()) {
    cleaned.bytes = log.files() == nullptr
                        ? SegmentBytes::allocate(written_.size())
                        : log.files()->create_cleaned_segment(base_offset, written_.size());
    std::memcpy(cleaned.bytes->data(), written_.data(), written_.size());
  }
  cleaned.batches.reserve(placed_.size());
  for (auto& [batch, at] : placed_) {
    batch.data = cleaned.bytes->data() + at;
    cleaned.batches.push_back(batch);
  }
  written_.clear();
  placed_.clear();
  Job& job = *job_;
  job.segment = nullptr;
  job.segment_pin.clear();
  job.next_batch = 0;
  return cleaned;
}

bool LogCleaner::clean_step(Cluster& cluster, BatchLog& log, const TopicConfig& config,
                            std::int64_t now_ms, Budget& budget, CleanerPass& pass) {
  Job& job = *job_;
  const std::vector<SegmentView> segments = log.closed_segments();
  std::size_t first = 0;
  while (first < segments.size() && segments[first].end_offset <= job.clean_next_offset) ++first;
  std::size_t next = first;
  std::vector<CleanedSegment> cleaned;
  bool paused = false;
  while (next < segments.size() && segments[next].base_offset < job.clean_end_offset) {
    const SegmentView& segment = segments[next];
    if (job.segment != segment.bytes) {
      // A new segment, or the one under way was dropped or replaced: start it afresh.
      written_.clear();
      placed_.clear();
      job.segment_pin.clear();
      job.segment = segment.bytes;
      job.next_batch = 0;
      if (!segment.batches.empty()) {
        log.pin_segments(segment.batches.front().base_offset, segment.batches.front().base_offset,
                         job.segment_pin);
      }
    }
    if (!clean_batches(segment, config, now_ms, budget, pass)) {
      paused = true;
      break;
    }
    try {
      cleaned.push_back(finish_segment(log, segment.base_offset));
    } catch (...) {
      // The disk cannot take the rewrite: the `.log.cleaned` files written go, the log stays.
      for (CleanedSegment& written : cleaned) {
        if (written.bytes != nullptr) written.bytes->discard();
      }
      written_.clear();
      placed_.clear();
      throw;
    }
    job.clean_next_offset = segment.end_offset;
    ++pass.segments_cleaned;
    ++next;
    if (budget.spent()) break;
  }
  const bool finished =
      !paused && (next >= segments.size() || segments[next].base_offset >= job.clean_end_offset);
  if (!cleaned.empty()) {
    const std::int64_t delta = log.replace_segments(first, std::move(cleaned));
    cluster.record_log_memory_change(delta);
    pass.memory_freed -= delta;
  }
  if (!finished) return false;
  CompactionProgress& progress = log.compaction();
  progress.first_dirty_offset =
      std::max(progress.first_dirty_offset, std::min(job.clean_end_offset, job.map_end_offset));
  progress.next_delete_horizon_ms = job.next_delete_horizon_ms;
  return true;
}

CleanerPass LogCleaner::run_pass(Cluster& cluster, std::int64_t now_ms) {
  CleanerPass pass;
  Budget budget{.bytes = std::max<std::size_t>(options_.bytes_per_pass, 1),
                .deadline = std::chrono::steady_clock::now() + options_.max_pass_time};
  while (!budget.spent()) {
    if (!job_ && !start_next_job(cluster, now_ms)) break;
    const StoredTopic* topic = nullptr;
    BatchLog* log = job_log(cluster, *job_, &topic);
    if (log == nullptr) {  // the topic went away or stopped being compacted
      job_.reset();
      continue;
    }
    const std::size_t read_before = pass.bytes_read;
    if (job_->mapping && !map_step(*log, budget, pass)) break;
    try {
      if (!clean_step(cluster, *log, topic->config, now_ms, budget, pass)) break;
    } catch (const std::system_error& e) {
      log_warn(std::string("compaction of ") + topic->name + " stopped: " + e.what() +
               " (it starts again at a later pass)");
      job_.reset();
      break;
    }
    ++pass.partitions_cleaned;
    pass.batches_kept_whole += job_->batches_kept_whole;
    job_.reset();
    if (pass.bytes_read == read_before) break;  // nothing was read: do not spin
  }
  pass.more_work = job_.has_value();
  return pass;
}

}  // namespace kgroups::broker
