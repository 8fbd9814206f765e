// SPDX-License-Identifier: Apache-2.0
#include "broker/storage/batch_log.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include "broker/storage/file_segment_bytes.h"
#include "protocol/record_batch.h"

namespace kgroups::broker {
namespace {

// Below this many dropped entries the index is not compacted.
constexpr std::size_t kMinIndexCompaction = 64;

// The batch header's maxTimestamp field (bytes 35-42).
std::int64_t header_max_timestamp(std::span<const std::uint8_t> batch) {
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < 8; ++i) value = (value << 8) | batch[35 + i];
  return static_cast<std::int64_t>(value);
}

}  // namespace

BatchLog::~BatchLog() {
  for (Segment& segment : segments_) SegmentBytes::release_from_log(segment.bytes, released_);
}

std::size_t BatchLog::next_segment_capacity(std::size_t batch_bytes) const {
  if (files_ != nullptr) return std::max(batch_bytes, file_segment_limit_);
  if (batch_bytes >= segment_limit_) return batch_bytes;
  const std::size_t previous = segments_.empty() ? 0 : segments_.back().capacity;
  std::size_t capacity = std::max(kMinSegmentBytes, std::min(previous * 2, segment_limit_));
  if (capacity < batch_bytes) capacity = std::min(std::bit_ceil(batch_bytes), segment_limit_);
  return capacity;
}

BatchLog::Segment BatchLog::open_segment(std::size_t batch_bytes) const {
  Segment segment;
  const std::size_t capacity = next_segment_capacity(batch_bytes);
  if (files_ == nullptr) {
    segment.bytes = SegmentBytes::allocate(capacity);
  } else {
    segment.bytes = files_->create_segment(end_offset_, capacity);
    try {
      segment.bytes->ensure_writable(batch_bytes);
    } catch (...) {
      segment.bytes->discard();
      throw;
    }
  }
  segment.capacity = segment.bytes->capacity();
  segment.memory = segment.bytes->memory_bytes();
  segment.base_offset = end_offset_;
  return segment;
}

bool BatchLog::rolls_before(std::size_t batch_bytes, std::int64_t now_ms) const {
  if (active_segment_bytes_ == 0) return false;
  return (roll_bytes_ > 0 && active_segment_bytes_ + batch_bytes > roll_bytes_) ||
         (roll_ms_ > 0 && now_ms - active_segment_first_append_ms_ >= roll_ms_);
}

std::size_t BatchLog::bytes_needed_to_append(std::size_t batch_bytes, std::int64_t now_ms) const {
  std::size_t needed = 0;
  if (files_ == nullptr &&
      (segments_.empty() || segments_.back().capacity - segments_.back().used < batch_bytes ||
       rolls_before(batch_bytes, now_ms))) {
    needed += next_segment_capacity(batch_bytes);
  }
  if (index_.size() == index_.capacity()) {
    needed += std::max<std::size_t>(index_.capacity(), 1) * sizeof(StoredBatch);
  }
  return needed;
}

void BatchLog::set_segment_limit(std::size_t bytes) {
  segment_limit_ = std::clamp(bytes, kMinSegmentBytes, kMaxSegmentBytes);
}

void BatchLog::set_file_segment_limit(std::size_t bytes) {
  file_segment_limit_ = std::clamp(bytes, kMinSegmentBytes, kMaxFileSegmentBytes);
}

void BatchLog::set_segment_roll(std::size_t roll_bytes, std::int64_t roll_ms) {
  roll_bytes_ = roll_bytes;
  roll_ms_ = std::max<std::int64_t>(roll_ms, 0);
}

std::vector<SegmentView> BatchLog::closed_segments() const {
  std::vector<SegmentView> closed;
  std::size_t first = index_begin_;
  for (std::size_t i = 0; i < segments_.size(); ++i) {
    const Segment& segment = segments_[i];
    if (segment.base_offset >= active_segment_start_) break;
    closed.push_back(SegmentView{
        .base_offset = segment.base_offset,
        .end_offset = i + 1 < segments_.size() ? segments_[i + 1].base_offset : end_offset_,
        .batches = std::span<const StoredBatch>(index_).subspan(first, segment.batch_count),
        .used_bytes = segment.used,
        .max_timestamp = segment.max_timestamp,
        .bytes = segment.bytes.get()});
    first += segment.batch_count;
  }
  return closed;
}

std::vector<SegmentSummary> BatchLog::segment_summaries(std::size_t limit) const {
  std::vector<SegmentSummary> summaries;
  const std::size_t first = segments_.size() > limit ? segments_.size() - limit : 0;
  for (std::size_t i = first; i < segments_.size(); ++i) {
    const Segment& segment = segments_[i];
    const std::int64_t end = i + 1 < segments_.size() ? segments_[i + 1].base_offset : end_offset_;
    const bool active = i + 1 == segments_.size() && !seal_last_segment_;
    summaries.push_back(
        SegmentSummary{.base_offset = segment.base_offset,
                       .end_offset = end,
                       .bytes = segment.used,
                       .batches = segment.batch_count,
                       .active = active,
                       .cleaned = !active && end <= compaction_.first_dirty_offset});
  }
  return summaries;
}

std::int64_t BatchLog::replace_segments(std::size_t first, std::vector<CleanedSegment> cleaned) {
  const std::size_t memory_before = memory_bytes();
  std::size_t position = index_begin_;
  for (std::size_t i = 0; i < first; ++i) position += segments_[i].batch_count;
  std::size_t old_count = 0;
  std::size_t new_count = 0;
  for (std::size_t k = 0; k < cleaned.size(); ++k) {
    old_count += segments_[first + k].batch_count;
    new_count += cleaned[k].batches.size();
  }
  std::vector<StoredBatch> index;
  index.reserve(index_.size() - index_begin_ - old_count + new_count);
  const auto at = [this](std::size_t i) { return index_.begin() + static_cast<std::ptrdiff_t>(i); };
  index.insert(index.end(), at(index_begin_), at(position));
  for (const CleanedSegment& segment : cleaned) {
    std::int64_t segment_max = -1;
    for (StoredBatch batch : segment.batches) {
      segment_max = std::max(segment_max, batch.max_timestamp);
      batch.segment_max_timestamp = segment_max;
      index.push_back(batch);
    }
  }
  index.insert(index.end(), at(position + old_count), index_.end());
  index_ = std::move(index);
  index_begin_ = 0;
  // Last to first, so that a removed segment hands its offsets to the next one kept.
  for (std::size_t k = cleaned.size(); k-- > 0;) {
    const std::size_t i = first + k;
    Segment& segment = segments_[i];
    size_bytes_ -= segment.used;
    segment_bytes_ -= segment.memory;
    CleanedSegment& replacement = cleaned[k];
    // On disk, as Kafka's cleaner: the cleaned file becomes a swap file first (recovery
    // completes a swap it finds), then the old files go, then the swap file takes their name.
    auto* cleaned_file = dynamic_cast<FileSegmentBytes*>(replacement.bytes.get());
    if (cleaned_file != nullptr) cleaned_file->begin_swap();
    segment.bytes->discard();
    SegmentBytes::release_from_log(segment.bytes, released_);
    if (cleaned_file != nullptr) {
      cleaned_file->finish_swap();
      cleaned_file->close(replacement.size_bytes, /*pinned=*/false);
    }
    if (replacement.batches.empty() && i + 1 < segments_.size()) {
      // The next segment takes over the emptied one's offsets, unless it is the active
      // segment's first chunk, whose base offset tells closed chunks from active ones.
      if (segments_[i + 1].base_offset < active_segment_start_) {
        segments_[i + 1].base_offset = segment.base_offset;
      }
      segments_.erase(segments_.begin() + static_cast<std::ptrdiff_t>(i));
      continue;
    }
    segment.capacity = replacement.bytes == nullptr ? 0 : replacement.bytes->capacity();
    segment.memory = replacement.bytes == nullptr ? 0 : replacement.bytes->memory_bytes();
    segment.bytes = std::move(replacement.bytes);
    segment.used = replacement.size_bytes;
    segment.batch_count = replacement.batches.size();
    size_bytes_ += segment.used;
    segment_bytes_ += segment.memory;
  }
  return static_cast<std::int64_t>(memory_bytes()) - static_cast<std::int64_t>(memory_before);
}

std::int64_t BatchLog::append(std::span<const std::uint8_t> batch, std::int32_t last_offset_delta,
                              std::int64_t max_timestamp, std::int64_t now_ms,
                              std::uint64_t sequence, TimestampType timestamp_type) {
  if (timestamp_type == TimestampType::kLogAppendTime) max_timestamp = now_ms;
  const bool roll = rolls_before(batch.size(), now_ms);
  if (roll || segments_.empty() || seal_last_segment_ ||
      segments_.back().capacity - segments_.back().used < batch.size()) {
    // Everything that may throw comes first: a failed append changes nothing.
    Segment segment = open_segment(batch.size());
    segment.sequence = sequence;
    if (!segments_.empty()) {
      Segment& previous = segments_.back();
      previous.bytes->close(previous.used, previous.bytes.use_count() > 1);
    }
    if (roll) {
      active_segment_start_ = end_offset_;
      active_segment_bytes_ = 0;
    }
    seal_last_segment_ = false;
    // Without a roll policy every memory segment is a Kafka segment of its own.
    if (roll_bytes_ == 0 && roll_ms_ == 0) active_segment_start_ = end_offset_;
    segment_bytes_ += segment.memory;
    segments_.push_back(std::move(segment));
  } else {
    segments_.back().bytes->ensure_writable(segments_.back().used + batch.size());
  }
  Segment& segment = segments_.back();
  std::uint8_t* stored = segment.bytes->data() + segment.used;
  if (!batch.empty()) std::memcpy(stored, batch.data(), batch.size());
  segment.used += batch.size();
  ++segment.batch_count;
  // Retention by time needs a time for every segment: records without timestamps count as
  // appended now.
  segment.max_timestamp =
      std::max(segment.max_timestamp, max_timestamp >= 0 ? max_timestamp : now_ms);

  const std::int64_t base_offset = end_offset_;
  const std::span<std::uint8_t> stored_batch(stored, batch.size());
  protocol::write_base_offset(stored_batch, base_offset);
  if (timestamp_type == TimestampType::kLogAppendTime) {
    protocol::write_log_append_time(stored_batch, now_ms);
  } else if (header_max_timestamp(stored_batch) != max_timestamp) {
    protocol::write_max_timestamp(stored_batch, max_timestamp);  // and the CRC, as Kafka does
  }
  index_.push_back(StoredBatch{.base_offset = base_offset,
                               .last_offset = base_offset + last_offset_delta,
                               .max_timestamp = max_timestamp,
                               .segment_max_timestamp = segment.max_timestamp,
                               .data = stored,
                               .size_bytes = batch.size()});
  end_offset_ = base_offset + last_offset_delta + 1;
  if (high_watermark_follows_end_) high_watermark_ = end_offset_;
  size_bytes_ += batch.size();
  if (active_segment_bytes_ == 0) active_segment_first_append_ms_ = now_ms;
  active_segment_bytes_ += batch.size();
  return base_offset;
}

std::span<const StoredBatch> BatchLog::batches_from(std::int64_t offset) const {
  if (offset < log_start_offset_ || offset >= end_offset_) return {};
  const auto live = std::span<const StoredBatch>(index_).subspan(index_begin_);
  // The first batch whose last offset is >= offset holds it, or (after cleaning) the next
  // offset kept.
  const auto it = std::partition_point(
      live.begin(), live.end(), [offset](const StoredBatch& b) { return b.last_offset < offset; });
  return live.subspan(static_cast<std::size_t>(it - live.begin()));
}

void BatchLog::pin_segments(std::int64_t first_base_offset, std::int64_t last_base_offset,
                            SegmentPins& pins) const {
  // Segment i covers [its base offset, the next one's): find the last starting at or before
  // the first batch, then walk on while segments start at or before the last batch.
  auto it = std::partition_point(
      segments_.begin(), segments_.end(),
      [first_base_offset](const Segment& s) { return s.base_offset <= first_base_offset; });
  if (it != segments_.begin()) --it;
  for (; it != segments_.end() && it->base_offset <= last_base_offset; ++it) pins.pin(it->bytes);
}

const StoredBatch* BatchLog::first_batch_at_or_after(std::int64_t timestamp_ms) const {
  std::size_t first = index_begin_;
  for (const Segment& segment : segments_) {
    if (segment.max_timestamp >= timestamp_ms) {
      // Within a segment, segment_max_timestamp only grows: binary search it.
      const auto begin = index_.begin() + static_cast<std::ptrdiff_t>(first);
      const auto end = begin + static_cast<std::ptrdiff_t>(segment.batch_count);
      const auto it = std::partition_point(begin, end, [timestamp_ms](const StoredBatch& b) {
        return b.segment_max_timestamp < timestamp_ms;
      });
      // Records without timestamps raised the segment's time but never match a timestamp.
      for (auto batch = it; batch != end; ++batch) {
        if (batch->max_timestamp >= timestamp_ms) return &*batch;
      }
    }
    first += segment.batch_count;
  }
  return nullptr;
}

std::int64_t BatchLog::max_record_timestamp() const {
  std::int64_t best = -1;
  std::size_t first = index_begin_;
  for (const Segment& segment : segments_) {
    const auto begin = index_.begin() + static_cast<std::ptrdiff_t>(first);
    const auto end = begin + static_cast<std::ptrdiff_t>(segment.batch_count);
    first += segment.batch_count;
    if (segment.max_timestamp <= best) continue;
    const std::int64_t segment_max = segment.max_timestamp;
    const auto it = std::partition_point(begin, end, [segment_max](const StoredBatch& b) {
      return b.segment_max_timestamp < segment_max;
    });
    if (it != end && it->max_timestamp == segment_max) {
      best = segment_max;
      continue;
    }
    // A batch without timestamps set the segment's maximum (append time): look at them all.
    for (auto batch = begin; batch != end; ++batch) best = std::max(best, batch->max_timestamp);
  }
  return best;
}

std::size_t BatchLog::drop_front_segment() {
  Segment& front = segments_.front();
  const std::size_t memory_before = memory_bytes();
  index_begin_ += front.batch_count;
  size_bytes_ -= front.used;
  segment_bytes_ -= front.memory;
  front.bytes->discard();
  SegmentBytes::release_from_log(front.bytes, released_);
  segments_.erase(segments_.begin());
  log_start_offset_ = segments_.empty() ? end_offset_ : segments_.front().base_offset;
  // Eviction may drop records no follower has yet: the high watermark never lies below the
  // log start offset.
  high_watermark_ = std::max(high_watermark_, log_start_offset_);
  transactions_.on_log_start_moved(log_start_offset_);
  if (segments_.empty()) {
    index_ = std::vector<StoredBatch>();  // an empty log keeps no index memory
    index_begin_ = 0;
  } else if (index_begin_ >= kMinIndexCompaction && index_begin_ * 2 >= index_.size()) {
    // Give the dropped entries' memory back: copy the live ones into a right-sized index.
    std::vector<StoredBatch> live(index_.begin() + static_cast<std::ptrdiff_t>(index_begin_),
                                  index_.end());
    index_ = std::move(live);
    index_begin_ = 0;
  }
  return memory_before - memory_bytes();
}

std::int64_t BatchLog::truncate_to(std::int64_t offset) {
  if (offset >= end_offset_) return 0;
  const std::int64_t dropped = end_offset_ - std::max(offset, log_start_offset_);
  while (!segments_.empty()) {
    Segment& last = segments_.back();
    while (last.batch_count > 0 && index_.back().base_offset >= offset) {
      size_bytes_ -= index_.back().size_bytes;
      last.used -= index_.back().size_bytes;
      index_.pop_back();
      --last.batch_count;
    }
    if (last.batch_count > 0) {
      last.max_timestamp = index_.back().segment_max_timestamp;
      last.bytes->truncated(last.used);
      break;
    }
    segment_bytes_ -= last.memory;
    last.bytes->discard();
    SegmentBytes::release_from_log(last.bytes, released_);
    segments_.pop_back();
  }
  // What a response may still pin is never written over: the next append opens a segment.
  seal_last_segment_ = true;
  if (segments_.empty()) {
    index_ = std::vector<StoredBatch>();
    index_begin_ = 0;
    // Truncated below the log start (an unclean election): the log starts again there.
    log_start_offset_ = std::min(log_start_offset_, offset);
  }
  end_offset_ = std::max(offset, log_start_offset_);
  high_watermark_ = std::min(high_watermark_, end_offset_);
  active_segment_start_ = std::min(active_segment_start_, end_offset_);
  compaction_.first_dirty_offset = std::min(compaction_.first_dirty_offset, end_offset_);
  refill_producer_state(producers_.forget_from(end_offset_));
  transactions_.on_truncate(end_offset_);
  return dropped;
}

void BatchLog::refill_producer_state(std::vector<std::int64_t> lacking) {
  std::size_t visited = 0;
  for (std::size_t i = index_.size();
       i > index_begin_ && !lacking.empty() && visited < kProducerRefillBatches; --i, ++visited) {
    const StoredBatch& stored = index_[i - 1];
    const auto header = protocol::parse_record_batch_header(stored.bytes());
    if (!header || header->producer_id < 0 || header->is_control() || header->base_sequence < 0) {
      continue;
    }
    const auto producer = std::find(lacking.begin(), lacking.end(), header->producer_id);
    if (producer == lacking.end()) continue;
    const bool takes_more = producers_.refill_older(
        header->producer_id, header->producer_epoch, header->base_sequence,
        ProducerStateTable::last_sequence(header->base_sequence, header->record_count),
        stored.base_offset);
    if (!takes_more) lacking.erase(producer);
  }
}

std::size_t BatchLog::drop_segments_older_than(std::int64_t cutoff_ms) {
  std::size_t freed = 0;
  while (!segments_.empty() && segments_.front().max_timestamp < cutoff_ms) {
    freed += drop_front_segment();
  }
  return freed;
}

std::size_t BatchLog::drop_segments_beyond_size(std::int64_t retention_bytes) {
  std::size_t freed = 0;
  while (!segments_.empty() && retention_bytes >= 0 &&
         static_cast<std::int64_t>(size_bytes_ - segments_.front().used) >= retention_bytes) {
    freed += drop_front_segment();
  }
  return freed;
}

void BatchLog::restore_segment(std::shared_ptr<SegmentBytes> bytes, std::int64_t base_offset,
                               std::size_t used, std::span<const StoredBatch> batches,
                               std::int64_t fallback_time_ms) {
  if (batches.empty()) return;
  Segment segment;
  segment.capacity = bytes->capacity();
  segment.memory = bytes->memory_bytes();
  segment.bytes = std::move(bytes);
  segment.used = used;
  segment.batch_count = batches.size();
  segment.base_offset = segments_.empty() ? base_offset : std::max(base_offset, end_offset_);
  for (StoredBatch batch : batches) {
    segment.max_timestamp = std::max(
        segment.max_timestamp, batch.max_timestamp >= 0 ? batch.max_timestamp : fallback_time_ms);
    batch.segment_max_timestamp = segment.max_timestamp;
    index_.push_back(batch);
  }
  if (segments_.empty()) log_start_offset_ = segment.base_offset;
  end_offset_ = batches.back().last_offset + 1;
  size_bytes_ += used;
  segment_bytes_ += segment.memory;
  segments_.push_back(std::move(segment));
}

void BatchLog::finish_restore(std::int64_t log_start_offset) {
  if (segments_.empty()) {
    end_offset_ = std::max(end_offset_, log_start_offset);
    log_start_offset_ = end_offset_;
  } else {
    log_start_offset_ = segments_.front().base_offset;  // the caller moves it on (DeleteRecords)
  }
  high_watermark_ = end_offset_;
  active_segment_start_ = end_offset_;
  active_segment_bytes_ = 0;
  seal_last_segment_ = true;
  if (files_ != nullptr) files_->flush_state().recovery_point = end_offset_;
  transactions_.on_log_start_moved(log_start_offset_);
}

void BatchLog::flush() {
  if (files_ == nullptr) return;
  PartitionFiles::FlushState& state = files_->flush_state();
  // Segments that end at or below the recovery point were flushed already.
  for (std::size_t i = segments_.size(); i-- > 0;) {
    segments_[i].bytes->sync();
    if (segments_[i].base_offset <= state.recovery_point) break;
  }
  state.recovery_point = end_offset_;
  state.unflushed_records = 0;
  state.first_unflushed_ms = -1;
  state.flush_requested = false;
}

void BatchLog::close_active_segment() {
  if (segments_.empty() || seal_last_segment_) return;
  Segment& last = segments_.back();
  last.bytes->close(last.used, last.bytes.use_count() > 1);
  seal_last_segment_ = true;
}

std::size_t BatchLog::evict_oldest_segment() {
  return segments_.empty() ? 0 : drop_front_segment();
}

std::size_t BatchLog::delete_records_before(std::int64_t offset) {
  if (offset <= log_start_offset_) return 0;
  std::size_t freed = 0;
  while (!segments_.empty() &&
         index_[index_begin_ + segments_.front().batch_count - 1].last_offset < offset) {
    freed += drop_front_segment();
  }
  log_start_offset_ = std::max(log_start_offset_, offset);
  transactions_.on_log_start_moved(log_start_offset_);
  return freed;
}

}  // namespace kgroups::broker
