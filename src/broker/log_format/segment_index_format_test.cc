// SPDX-License-Identifier: Apache-2.0
#include "broker/log_format/segment_index_format.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "protocol/record_batch.h"
#include "protocol/record_batch_builder.h"

namespace kgroups::broker {
namespace {

// Batches of 1500 bytes back to back from position 0, two offsets each from `base_offset`,
// with these max timestamps.
std::vector<ScannedBatch> batches_with(std::int64_t base_offset,
                                       const std::vector<std::int64_t>& max_timestamps) {
  std::vector<ScannedBatch> batches;
  for (std::size_t i = 0; i < max_timestamps.size(); ++i) {
    ScannedBatch batch;
    batch.position = 1500 * i;
    batch.size_bytes = 1500;
    batch.base_offset = base_offset + 2 * static_cast<std::int64_t>(i);
    batch.last_offset = batch.base_offset + 1;
    batch.max_timestamp = max_timestamps[i];
    batches.push_back(batch);
  }
  return batches;
}

std::vector<std::uint8_t> be(std::initializer_list<std::pair<std::uint64_t, int>> fields) {
  std::vector<std::uint8_t> bytes;
  for (const auto& [value, width] : fields) {
    for (int i = width; i-- > 0;) bytes.push_back(static_cast<std::uint8_t>(value >> (8 * i)));
  }
  return bytes;
}

// Kafka's rule, by hand, for 1500-byte batches and index.interval.bytes 4096: the bytes since
// the last entry, counted before each batch, are 0, 1500, 3000, 4500 > 4096 -> the 4th batch
// (index 3) gets an entry and the count restarts with its 1500; so do the 7th and the 10th.
TEST(LogFormatSegmentIndex, OffsetEntriesGoToTheBatchAfterMoreThanTheIntervalBytes) {
  const auto batches = batches_with(1000, {100, 300, 200, 250, 400, 350, 390, 380, 500, 450, 600});
  const std::vector<std::uint8_t> index = build_offset_index(1000, batches);
  EXPECT_EQ(index, be({{7, 4}, {4500, 4}, {13, 4}, {9000, 4}, {19, 4}, {13500, 4}}));
  const auto entries = parse_offset_index(index, 1000);
  ASSERT_EQ(entries.size(), 3U);
  EXPECT_EQ(entries[0].offset, 1007);  // the last offset of the batch at 4500
  EXPECT_EQ(entries[0].position, 4500);
  EXPECT_EQ(entries[2].offset, 1019);
  EXPECT_EQ(entries[2].position, 13500);
}

// At those same batches the time index gets the largest timestamp so far with the last offset
// of the batch that has it: (300, 1003), (400, 1009), (500, 1017); the 11th batch's 600 comes
// after the last entry, so only the closing entry (a rolled segment's) records it.
TEST(LogFormatSegmentIndex, TimeEntriesCarryTheLargestTimestampSoFarAndCloseWithIt) {
  const auto batches = batches_with(1000, {100, 300, 200, 250, 400, 350, 390, 380, 500, 450, 600});
  const auto active = build_time_index(1000, batches, false);
  EXPECT_EQ(active, be({{300, 8}, {3, 4}, {400, 8}, {9, 4}, {500, 8}, {17, 4}}));
  const auto closed = build_time_index(1000, batches, true);
  EXPECT_EQ(closed, be({{300, 8}, {3, 4}, {400, 8}, {9, 4}, {500, 8}, {17, 4}, {600, 8}, {21, 4}}));
  const auto entries = parse_time_index(closed, 1000);
  ASSERT_EQ(entries.size(), 4U);
  EXPECT_EQ(entries[3].timestamp, 600);
  EXPECT_EQ(entries[3].offset, 1021);
}

TEST(LogFormatSegmentIndex, ATimeEntryIsWrittenOnlyWhenTheTimestampGrew) {
  // The largest timestamp is 300 at both entry points (batches 3 and 6): one entry; closing
  // adds nothing either, 300 being already the last entry.
  const auto batches = batches_with(0, {100, 300, 200, 250, 290, 280, 270});
  EXPECT_EQ(build_time_index(0, batches, false), be({{300, 8}, {3, 4}}));
  EXPECT_EQ(build_time_index(0, batches, true), be({{300, 8}, {3, 4}}));
  EXPECT_EQ(build_offset_index(0, batches), be({{7, 4}, {4500, 4}, {13, 4}, {9000, 4}}));
  // Batches without timestamps (-1) never make a time entry.
  EXPECT_TRUE(build_time_index(0, batches_with(0, {-1, -1, -1, -1, -1}), true).empty());
}

TEST(LogFormatSegmentIndex, ASmallSegmentHasOnlyTheClosingTimeEntry) {
  const auto batches = batches_with(50, {7, 9, 8});
  EXPECT_TRUE(build_offset_index(50, batches).empty());
  EXPECT_TRUE(build_time_index(50, batches, false).empty());
  EXPECT_EQ(build_time_index(50, batches, true), be({{9, 8}, {3, 4}}));
  EXPECT_TRUE(build_time_index(50, {}, true).empty());
}

TEST(LogFormatSegmentIndex, AnIntervalOfZeroIndexesEveryBatchButTheFirst) {
  const auto batches = batches_with(0, {1, 2, 3});
  EXPECT_EQ(build_offset_index(0, batches, 0), be({{3, 4}, {1500, 4}, {5, 4}, {3000, 4}}));
  EXPECT_EQ(build_time_index(0, batches, false, 0), be({{2, 8}, {3, 4}, {3, 8}, {5, 4}}));
}

TEST(LogFormatSegmentIndex, RealBatchesOfAboutFifteenHundredBytesGetEveryThirdEntry) {
  std::vector<std::uint8_t> segment;
  for (int i = 0; i < 10; ++i) {
    protocol::RecordBatchBuilder builder;
    const std::string value(1430, static_cast<char>('a' + i));
    builder.add(protocol::ByteView::of("k"), protocol::ByteView::of(value), 1000 + i);
    std::vector<std::uint8_t> batch = builder.build();
    protocol::write_base_offset(batch, 100 + i);
    segment.insert(segment.end(), batch.begin(), batch.end());
  }
  const SegmentScan scan = scan_segment(segment, 100, true);
  ASSERT_EQ(scan.batches.size(), 10U);
  const std::size_t size = scan.batches[0].size_bytes;
  ASSERT_TRUE(2 * size <= kDefaultIndexIntervalBytes && 3 * size > kDefaultIndexIntervalBytes)
      << size;
  const auto offsets = parse_offset_index(build_offset_index(100, scan.batches), 100);
  ASSERT_EQ(offsets.size(), 3U);
  for (std::size_t k = 0; k < 3; ++k) {
    const ScannedBatch& batch = scan.batches[3 * (k + 1)];
    EXPECT_EQ(offsets[k].offset, batch.last_offset);
    EXPECT_EQ(static_cast<std::size_t>(offsets[k].position), batch.position);
  }
  const auto times = parse_time_index(build_time_index(100, scan.batches, true), 100);
  // The last batch got an entry, so closing adds none (1009 is already the last timestamp).
  ASSERT_EQ(times.size(), 3U);
  EXPECT_EQ(times[0].timestamp, 1003);
  EXPECT_EQ(times[0].offset, 103);
  EXPECT_EQ(times[2].timestamp, 1009);
  EXPECT_EQ(times[2].offset, 109);
}

TEST(LogFormatSegmentIndex, ParsingStopsAtPreallocatedZerosAndIgnoresAPartialEntry) {
  auto offsets = be({{7, 4}, {4500, 4}, {13, 4}, {9000, 4}});
  offsets.resize(offsets.size() + 800, 0);
  EXPECT_EQ(parse_offset_index(offsets, 0).size(), 2U);
  auto partial = be({{7, 4}, {4500, 4}, {13, 4}});
  EXPECT_EQ(parse_offset_index(partial, 0).size(), 1U);
  EXPECT_TRUE(parse_offset_index(std::vector<std::uint8_t>(80, 0), 0).empty());

  auto times = be({{300, 8}, {0, 4}, {400, 8}, {9, 4}});  // a first entry at the base offset
  times.resize(times.size() + 120, 0);
  const auto entries = parse_time_index(times, 10);
  ASSERT_EQ(entries.size(), 2U);
  EXPECT_EQ(entries[0].offset, 10);
  EXPECT_EQ(entries[1].offset, 19);
  EXPECT_TRUE(parse_time_index(std::vector<std::uint8_t>(120, 0), 0).empty());
  times.resize(13);
  EXPECT_EQ(parse_time_index(times, 0).size(), 1U);
}

}  // namespace
}  // namespace kgroups::broker
