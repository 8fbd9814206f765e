// SPDX-License-Identifier: Apache-2.0
#include "broker/log_format/segment_index_format.h"

namespace kgroups::broker {
namespace {

void put_be(std::vector<std::uint8_t>& out, std::uint64_t value, std::size_t width) {
  for (std::size_t i = width; i-- > 0;) {
    out.push_back(static_cast<std::uint8_t>(value >> (8 * i)));
  }
}

std::uint64_t get_be(std::span<const std::uint8_t> bytes, std::size_t at, std::size_t width) {
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < width; ++i) value = (value << 8U) | bytes[at + i];
  return value;
}

std::uint64_t relative(std::int64_t offset, std::int64_t base_offset) {
  return static_cast<std::uint32_t>(static_cast<std::int32_t>(offset - base_offset));
}

// What LogSegment keeps while appending: the bytes since the last index entry, the largest
// timestamp so far and the offset of the batch that has it (Kafka starts them from the empty
// time index's last entry: timestamp -1 at the base offset), and the time index's last
// timestamp (TimeIndex.maybeAppend writes only a larger one).
class IndexBuilder {
 public:
  IndexBuilder(std::int64_t base_offset, std::size_t interval_bytes)
      : base_offset_(base_offset), interval_bytes_(interval_bytes), offset_of_max_(base_offset) {}

  void append(const ScannedBatch& batch) {
    if (batch.max_timestamp > max_timestamp_) {
      max_timestamp_ = batch.max_timestamp;
      offset_of_max_ = batch.last_offset;
    }
    if (since_last_entry_ > interval_bytes_) {
      put_be(offsets_, relative(batch.last_offset, base_offset_), 4);
      put_be(offsets_, static_cast<std::uint32_t>(batch.position), 4);
      maybe_append_time();
      since_last_entry_ = 0;
    }
    since_last_entry_ += batch.size_bytes;
  }

  // The entry a rolled (or recovered) segment's time index gets.
  void close() { maybe_append_time(); }

  std::vector<std::uint8_t>& offsets() { return offsets_; }
  std::vector<std::uint8_t>& times() { return times_; }

 private:
  void maybe_append_time() {
    if (max_timestamp_ <= last_time_entry_) return;
    put_be(times_, static_cast<std::uint64_t>(max_timestamp_), 8);
    put_be(times_, relative(offset_of_max_, base_offset_), 4);
    last_time_entry_ = max_timestamp_;
  }

  std::int64_t base_offset_;
  std::size_t interval_bytes_;
  std::size_t since_last_entry_ = 0;
  std::int64_t max_timestamp_ = -1;
  std::int64_t offset_of_max_;
  std::int64_t last_time_entry_ = -1;
  std::vector<std::uint8_t> offsets_;
  std::vector<std::uint8_t> times_;
};

}  // namespace

std::vector<std::uint8_t> build_offset_index(std::int64_t base_offset,
                                             std::span<const ScannedBatch> batches,
                                             std::size_t interval_bytes) {
  IndexBuilder builder(base_offset, interval_bytes);
  for (const ScannedBatch& batch : batches) builder.append(batch);
  return std::move(builder.offsets());
}

std::vector<std::uint8_t> build_time_index(std::int64_t base_offset,
                                           std::span<const ScannedBatch> batches, bool closed,
                                           std::size_t interval_bytes) {
  IndexBuilder builder(base_offset, interval_bytes);
  for (const ScannedBatch& batch : batches) builder.append(batch);
  if (closed) builder.close();
  return std::move(builder.times());
}

std::vector<OffsetIndexEntry> parse_offset_index(std::span<const std::uint8_t> bytes,
                                                 std::int64_t base_offset) {
  std::vector<OffsetIndexEntry> entries;
  for (std::size_t at = 0; at + kOffsetIndexEntryBytes <= bytes.size();
       at += kOffsetIndexEntryBytes) {
    const auto relative_offset = static_cast<std::int32_t>(get_be(bytes, at, 4));
    const auto position = static_cast<std::int32_t>(get_be(bytes, at + 4, 4));
    if (relative_offset == 0 && (!entries.empty() || position == 0)) break;
    entries.push_back({base_offset + relative_offset, position});
  }
  return entries;
}

std::vector<TimeIndexEntry> parse_time_index(std::span<const std::uint8_t> bytes,
                                             std::int64_t base_offset) {
  std::vector<TimeIndexEntry> entries;
  for (std::size_t at = 0; at + kTimeIndexEntryBytes <= bytes.size(); at += kTimeIndexEntryBytes) {
    const auto timestamp = static_cast<std::int64_t>(get_be(bytes, at, 8));
    const auto relative_offset = static_cast<std::int32_t>(get_be(bytes, at + 8, 4));
    if (relative_offset == 0 && (!entries.empty() || timestamp == 0)) break;
    entries.push_back({timestamp, base_offset + relative_offset});
  }
  return entries;
}

}  // namespace kgroups::broker
