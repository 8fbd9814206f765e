// SPDX-License-Identifier: Apache-2.0
#include "broker/log_format/segment_scan.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <utility>

#include "protocol/record_batch.h"

namespace kgroups::broker {
namespace {

constexpr std::size_t kLastOffsetDeltaAt = 23;
constexpr std::size_t kBaseTimestampAt = 27;
constexpr std::size_t kProducerIdAt = 43;
constexpr std::size_t kProducerEpochAt = 51;
constexpr std::size_t kBaseSequenceAt = 53;
constexpr std::size_t kRecordCountAt = 57;
constexpr std::int64_t kMinBatchLength =
    static_cast<std::int64_t>(protocol::kBatchHeaderSize - protocol::kBatchLogOverhead);
constexpr std::uint8_t kMagic = 2;

std::uint64_t read_be(std::span<const std::uint8_t> bytes, std::size_t at, std::size_t width) {
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < width; ++i) value = (value << 8U) | bytes[at + i];
  return value;
}

// The header of `batch`, a whole batch (at least 61 bytes) at `position`.
ScannedBatch read_header(std::span<const std::uint8_t> batch, std::size_t position) {
  ScannedBatch header;
  header.position = position;
  header.size_bytes = batch.size();
  header.base_offset =
      static_cast<std::int64_t>(read_be(batch, protocol::kBatchBaseOffsetOffset, 8));
  header.partition_leader_epoch =
      static_cast<std::int32_t>(read_be(batch, protocol::kBatchPartitionLeaderEpochOffset, 4));
  header.crc = static_cast<std::uint32_t>(read_be(batch, protocol::kBatchCrcOffset, 4));
  header.attributes =
      static_cast<std::int16_t>(read_be(batch, protocol::kBatchAttributesOffset, 2));
  header.base_timestamp = static_cast<std::int64_t>(read_be(batch, kBaseTimestampAt, 8));
  header.max_timestamp =
      static_cast<std::int64_t>(read_be(batch, protocol::kBatchMaxTimestampOffset, 8));
  header.producer_id = static_cast<std::int64_t>(read_be(batch, kProducerIdAt, 8));
  header.producer_epoch = static_cast<std::int16_t>(read_be(batch, kProducerEpochAt, 2));
  header.base_sequence = static_cast<std::int32_t>(read_be(batch, kBaseSequenceAt, 4));
  header.record_count = static_cast<std::int32_t>(read_be(batch, kRecordCountAt, 4));
  header.transactional = (header.attributes & 0x10) != 0;
  header.control = (header.attributes & 0x20) != 0;
  return header;
}

std::string hex(std::uint32_t value) {
  char text[11];
  std::snprintf(text, sizeof text, "0x%08x", value);
  return text;
}

bool all_zero(std::span<const std::uint8_t> bytes) {
  return std::ranges::all_of(bytes, [](std::uint8_t byte) { return byte == 0; });
}

// Why the batch at the start of `rest` (at `position`) is not valid, "" when it is; `header`
// is its parsed header when the length checks passed. Sets `stop` to the kind of failure.
std::string check_batch(std::span<const std::uint8_t> rest, std::size_t position,
                        std::int64_t next_offset, bool check_crc, ScanStop& stop,
                        ScannedBatch& header) {
  const std::string at = "the batch at byte " + std::to_string(position);
  if (rest.size() < protocol::kBatchLogOverhead) {
    stop = ScanStop::kTornTail;
    return std::to_string(rest.size()) + " byte(s) at byte " + std::to_string(position) +
           " are too few for a batch's baseOffset and batchLength";
  }
  stop = ScanStop::kCorrupt;
  const auto length = static_cast<std::int32_t>(read_be(rest, protocol::kBatchLengthOffset, 4));
  if (length < kMinBatchLength) {
    return "batchLength " + std::to_string(length) + " of " + at + " is below the " +
           std::to_string(kMinBatchLength) + " bytes of the header";
  }
  const std::size_t size = static_cast<std::size_t>(length) + protocol::kBatchLogOverhead;
  if (size > kMaxScannedBatchBytes) {
    return "batchLength " + std::to_string(length) + " of " + at + " is above the " +
           std::to_string(kMaxScannedBatchBytes) + "-byte limit";
  }
  if (size > rest.size()) {
    stop = ScanStop::kTornTail;
    return at + " declares " + std::to_string(size) + " bytes but only " +
           std::to_string(rest.size()) + " remain";
  }
  const std::span<const std::uint8_t> batch = rest.first(size);
  if (batch[protocol::kBatchMagicOffset] != kMagic) {
    return at + " has magic " + std::to_string(batch[protocol::kBatchMagicOffset]) + ", not 2";
  }
  header = read_header(batch, position);
  const auto delta = static_cast<std::int32_t>(read_be(batch, kLastOffsetDeltaAt, 4));
  if (delta < 0) return "lastOffsetDelta " + std::to_string(delta) + " of " + at + " is negative";
  if (header.base_offset < next_offset) {
    return "base offset " + std::to_string(header.base_offset) + " of " + at + " is below " +
           (position == 0 ? "the first offset the segment may hold, "
                          : "the previous batch's next offset ") +
           std::to_string(next_offset);
  }
  if (header.base_offset > std::numeric_limits<std::int64_t>::max() - delta) {
    return "the last offset of " + at + " overflows (base offset " +
           std::to_string(header.base_offset) + ", lastOffsetDelta " + std::to_string(delta) + ")";
  }
  header.last_offset = header.base_offset + delta;
  if (check_crc) {
    const std::uint32_t computed = protocol::compute_batch_crc(batch);
    if (computed != header.crc) {
      return "CRC mismatch in " + at + " (stored " + hex(header.crc) + ", computed " +
             hex(computed) + ")";
    }
  }
  return "";
}

}  // namespace

SegmentScan scan_segment(std::span<const std::uint8_t> bytes, std::int64_t first_offset,
                         bool check_crc) {
  SegmentScan scan;
  std::size_t position = 0;
  std::int64_t next_offset = first_offset;
  while (position < bytes.size()) {
    const std::span<const std::uint8_t> rest = bytes.subspan(position);
    if (all_zero(rest)) {
      scan.stop = ScanStop::kZeroTail;
      scan.reason = std::to_string(rest.size()) + " zero byte(s) from byte " +
                    std::to_string(position) + " to the end";
      break;
    }
    ScanStop stop = ScanStop::kEnd;
    ScannedBatch header;
    std::string reason = check_batch(rest, position, next_offset, check_crc, stop, header);
    if (!reason.empty()) {
      scan.stop = stop;
      scan.reason = std::move(reason);
      break;
    }
    position += header.size_bytes;
    next_offset = header.last_offset == std::numeric_limits<std::int64_t>::max()
                      ? header.last_offset
                      : header.last_offset + 1;
    scan.batches.push_back(header);
  }
  scan.valid_bytes = position;
  return scan;
}

}  // namespace kgroups::broker
