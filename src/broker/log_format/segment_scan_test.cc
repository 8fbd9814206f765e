// SPDX-License-Identifier: Apache-2.0
#include "broker/log_format/segment_scan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "protocol/record_batch.h"
#include "protocol/record_batch_builder.h"

namespace kgroups::broker {
namespace {

// One batch of `records` records with `value_bytes`-byte values at `base_offset`, the records
// timestamped from `timestamp` on.
std::vector<std::uint8_t> batch_of(std::int64_t base_offset, int records, std::size_t value_bytes,
                                   std::int64_t timestamp) {
  protocol::RecordBatchBuilder builder;
  for (int i = 0; i < records; ++i) {
    const std::string value(value_bytes, static_cast<char>('a' + i % 26));
    builder.add(protocol::ByteView::of("k"), protocol::ByteView::of(value), timestamp + i);
  }
  std::vector<std::uint8_t> batch = builder.build();
  protocol::write_base_offset(batch, base_offset);
  return batch;
}

// `count` batches of 2 records each, offsets dense from `base_offset`.
std::vector<std::uint8_t> segment_of(std::size_t count, std::int64_t base_offset = 0) {
  std::vector<std::uint8_t> segment;
  for (std::size_t i = 0; i < count; ++i) {
    const auto batch = batch_of(base_offset + 2 * static_cast<std::int64_t>(i), 2, 100,
                                1000 + static_cast<std::int64_t>(i));
    segment.insert(segment.end(), batch.begin(), batch.end());
  }
  return segment;
}

TEST(LogFormatSegmentScan, AWholeSegmentEndsCleanlyWithEveryBatch) {
  const auto segment = segment_of(3, 10);
  const SegmentScan scan = scan_segment(segment, 10, true);
  EXPECT_EQ(scan.stop, ScanStop::kEnd);
  EXPECT_EQ(scan.valid_bytes, segment.size());
  EXPECT_TRUE(scan.reason.empty());
  ASSERT_EQ(scan.batches.size(), 3U);
  const ScannedBatch& second = scan.batches[1];
  EXPECT_EQ(second.position, scan.batches[0].size_bytes);
  EXPECT_EQ(second.size_bytes, segment.size() / 3);
  EXPECT_EQ(second.base_offset, 12);
  EXPECT_EQ(second.last_offset, 13);
  EXPECT_EQ(second.record_count, 2);
  EXPECT_EQ(second.base_timestamp, 1001);
  EXPECT_EQ(second.max_timestamp, 1002);
  EXPECT_EQ(second.producer_id, -1);
  EXPECT_FALSE(second.transactional);
  EXPECT_FALSE(second.control);
  EXPECT_EQ(second.crc, protocol::compute_batch_crc(std::span<const std::uint8_t>(segment).subspan(
                            second.position, second.size_bytes)));
}

TEST(LogFormatSegmentScan, AnEmptySegmentEndsAtOnce) {
  const SegmentScan scan = scan_segment({}, 0, true);
  EXPECT_EQ(scan.stop, ScanStop::kEnd);
  EXPECT_EQ(scan.valid_bytes, 0U);
  EXPECT_TRUE(scan.batches.empty());
}

TEST(LogFormatSegmentScan, ReadsTheProducerAndTheTransactionBits) {
  protocol::RecordBatchBuilder builder;
  builder.set_producer(7, 3, 40);
  builder.set_attributes(0x30);  // transactional, control
  builder.add(protocol::ByteView::of("k"), protocol::ByteView::of("v"), 5);
  const std::vector<std::uint8_t> batch = builder.build();
  const SegmentScan scan = scan_segment(batch, 0, true);
  ASSERT_EQ(scan.batches.size(), 1U);
  EXPECT_EQ(scan.batches[0].producer_id, 7);
  EXPECT_EQ(scan.batches[0].producer_epoch, 3);
  EXPECT_EQ(scan.batches[0].base_sequence, 40);
  EXPECT_TRUE(scan.batches[0].transactional);
  EXPECT_TRUE(scan.batches[0].control);
  EXPECT_EQ(scan.batches[0].attributes, 0x30);
}

TEST(LogFormatSegmentScan, AZeroedTailIsNotCorruption) {
  for (const std::size_t zeros : {1U, 11U, 12U, 60U, 61U, 5000U}) {
    auto segment = segment_of(2);
    const std::size_t valid = segment.size();
    segment.resize(valid + zeros, 0);
    const SegmentScan scan = scan_segment(segment, 0, true);
    EXPECT_EQ(scan.stop, ScanStop::kZeroTail) << zeros;
    EXPECT_EQ(scan.valid_bytes, valid);
    EXPECT_EQ(scan.batches.size(), 2U);
  }
  const std::vector<std::uint8_t> preallocated(4096, 0);
  const SegmentScan empty = scan_segment(preallocated, 0, true);
  EXPECT_EQ(empty.stop, ScanStop::kZeroTail);
  EXPECT_EQ(empty.valid_bytes, 0U);
}

TEST(LogFormatSegmentScan, ALastBatchCutAtAnyByteIsATornTailAfterTheBatchesBefore) {
  const auto segment = segment_of(3);
  const std::size_t last = scan_segment(segment, 0, true).batches[2].position;
  for (std::size_t cut = last + 1; cut < segment.size(); ++cut) {
    const auto bytes = std::span<const std::uint8_t>(segment).first(cut);
    const SegmentScan scan = scan_segment(bytes, 0, true);
    // A cut inside the first 8 bytes of the base offset (0 at batch 2: offsets 4..5 -> only
    // the last byte is nonzero) leaves zeros only: then it is a zero tail.
    if (std::all_of(bytes.begin() + static_cast<std::ptrdiff_t>(last), bytes.end(),
                    [](std::uint8_t b) { return b == 0; })) {
      EXPECT_EQ(scan.stop, ScanStop::kZeroTail) << "cut at " << cut;
    } else {
      EXPECT_EQ(scan.stop, ScanStop::kTornTail) << "cut at " << cut << ": " << scan.reason;
      EXPECT_NE(scan.reason.find("at byte " + std::to_string(last)), std::string::npos)
          << scan.reason;
    }
    EXPECT_EQ(scan.valid_bytes, last);
    EXPECT_EQ(scan.batches.size(), 2U);
  }
}

TEST(LogFormatSegmentScan, AFlippedByteInTheMiddleBatchIsCorruptionThere) {
  const auto clean = segment_of(3);
  const SegmentScan whole = scan_segment(clean, 0, true);
  const ScannedBatch& middle = whole.batches[1];
  // Every byte the CRC covers (from the attributes on) fails the CRC when flipped.
  for (std::size_t at = protocol::kBatchAttributesOffset; at < middle.size_bytes; ++at) {
    auto segment = clean;
    segment[middle.position + at] ^= 0x40;
    const SegmentScan scan = scan_segment(segment, 0, true);
    EXPECT_EQ(scan.stop, ScanStop::kCorrupt) << at;
    EXPECT_NE(
        scan.reason.find("CRC mismatch in the batch at byte " + std::to_string(middle.position)),
        std::string::npos)
        << scan.reason;
    EXPECT_EQ(scan.valid_bytes, middle.position);
    ASSERT_EQ(scan.batches.size(), 1U);
  }
}

TEST(LogFormatSegmentScan, WithoutCrcChecksAFlippedPayloadByteGoesUnnoticed) {
  auto segment = segment_of(3);
  const SegmentScan whole = scan_segment(segment, 0, true);
  segment[whole.batches[1].position + 80] ^= 0x40;
  EXPECT_EQ(scan_segment(segment, 0, true).stop, ScanStop::kCorrupt);
  const SegmentScan unchecked = scan_segment(segment, 0, false);
  EXPECT_EQ(unchecked.stop, ScanStop::kEnd);
  EXPECT_EQ(unchecked.batches.size(), 3U);
}

TEST(LogFormatSegmentScan, OffsetsGoingBackwardsAreCorruption) {
  auto segment = batch_of(5, 3, 50, 1);  // offsets 5..7
  const auto overlapping = batch_of(7, 1, 50, 1);
  segment.insert(segment.end(), overlapping.begin(), overlapping.end());
  const SegmentScan scan = scan_segment(segment, 0, true);
  EXPECT_EQ(scan.stop, ScanStop::kCorrupt);
  EXPECT_EQ(scan.batches.size(), 1U);
  EXPECT_NE(
      scan.reason.find("base offset 7 of the batch at byte " + std::to_string(scan.valid_bytes) +
                       " is below the previous batch's next offset 8"),
      std::string::npos)
      << scan.reason;
  // Below the segment's base offset; a gap (compaction) is fine.
  EXPECT_EQ(scan_segment(batch_of(3, 1, 10, 1), 4, true).stop, ScanStop::kCorrupt);
  auto gap = batch_of(4, 1, 10, 1);
  const auto later = batch_of(9, 1, 10, 1);
  gap.insert(gap.end(), later.begin(), later.end());
  EXPECT_EQ(scan_segment(gap, 4, true).stop, ScanStop::kEnd);
}

TEST(LogFormatSegmentScan, BadMagicLengthsAndDeltasAreCorruption) {
  auto magic = batch_of(0, 1, 50, 1);
  magic[protocol::kBatchMagicOffset] = 1;
  const SegmentScan bad_magic = scan_segment(magic, 0, false);
  EXPECT_EQ(bad_magic.stop, ScanStop::kCorrupt);
  EXPECT_EQ(bad_magic.reason, "the batch at byte 0 has magic 1, not 2");

  auto short_length = batch_of(0, 1, 50, 1);
  short_length[8] = short_length[9] = short_length[10] = 0;
  short_length[11] = 12;
  const SegmentScan too_short = scan_segment(short_length, 0, false);
  EXPECT_EQ(too_short.stop, ScanStop::kCorrupt);
  EXPECT_NE(too_short.reason.find("batchLength 12"), std::string::npos) << too_short.reason;

  auto huge = batch_of(0, 1, 50, 1);
  huge[8] = 0x7F;  // about 2 GiB
  EXPECT_EQ(scan_segment(huge, 0, false).stop, ScanStop::kCorrupt);

  auto negative = batch_of(0, 1, 50, 1);
  negative[23] = negative[24] = negative[25] = negative[26] = 0xFF;  // lastOffsetDelta -1
  const SegmentScan delta = scan_segment(negative, 0, false);
  EXPECT_EQ(delta.stop, ScanStop::kCorrupt);
  EXPECT_NE(delta.reason.find("lastOffsetDelta -1"), std::string::npos) << delta.reason;
}

}  // namespace
}  // namespace kgroups::broker
