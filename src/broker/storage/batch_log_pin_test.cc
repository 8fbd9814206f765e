// SPDX-License-Identifier: Apache-2.0
//
// BatchLog::pin_segments(): a pinned segment's bytes outlive whatever the log does to it
// (retention, eviction, DeleteRecords, the cleaner replacing it, the log going away), and
// count whole in the log's ReleasedSegmentMemory from then until the last pin goes.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "broker/storage/batch_log.h"
#include "protocol/record_batch.h"
#include "protocol/record_batch_builder.h"

namespace kgroups::broker {
namespace {

using protocol::ByteView;

// A log of 40 batches of about 370 bytes in segments of at most 2 KiB (so about 9).
BatchLog small_segment_log() {
  BatchLog log;
  log.set_segment_limit(std::size_t{2} << 10);
  protocol::RecordBatchBuilder builder;
  builder.add(ByteView::of("k"), ByteView::of(std::string(300, 'v')), 1000);
  const std::vector<std::uint8_t> batch = builder.build();
  for (int i = 0; i < 40; ++i) log.append(batch, 0, 1000, 1000);
  return log;
}

// The batches from `offset` to the end, and copies of their bytes as they are now.
struct Sent {
  std::vector<ByteView> views;
  std::vector<std::vector<std::uint8_t>> copies;

  Sent(const BatchLog& log, std::int64_t offset) {
    for (const StoredBatch& batch : log.batches_from(offset)) {
      views.emplace_back(batch.bytes());
      copies.emplace_back(batch.data, batch.data + batch.size_bytes);
    }
  }
  void expect_unchanged() const {
    for (std::size_t i = 0; i < views.size(); ++i) {
      EXPECT_TRUE(std::equal(views[i].begin(), views[i].end(), copies[i].begin(), copies[i].end()))
          << "batch " << i;
    }
  }
};

TEST(BatchLogPins, PinsEachSegmentTouchedOnce) {
  const BatchLog log = small_segment_log();
  ASSERT_GT(log.segment_count(), 4u);
  SegmentPins all;
  log.pin_segments(0, 39, all);
  EXPECT_EQ(all.size(), log.segment_count());
  SegmentPins last;
  log.pin_segments(39, 39, last);
  EXPECT_EQ(last.size(), 1u);
  SegmentPins twice;  // the same run pinned again adds nothing
  log.pin_segments(39, 39, twice);
  log.pin_segments(39, 39, twice);
  EXPECT_EQ(twice.size(), 1u);
}

TEST(BatchLogPins, PinnedBytesOutliveEvictionRetentionAndDeleteRecords) {
  BatchLog log = small_segment_log();
  const Sent sent(log, 0);
  SegmentPins pins;
  log.pin_segments(0, 39, pins);
  log.delete_records_before(10);
  log.drop_segments_beyond_size(0);
  while (log.segment_count() > 0) log.evict_oldest_segment();
  // Overwrite whatever a freed segment would have been given to.
  BatchLog other = small_segment_log();
  sent.expect_unchanged();
  pins.clear();
}

TEST(BatchLogPins, PinnedBytesOutliveTheCleanerReplacingTheirSegment) {
  BatchLog log = small_segment_log();
  const Sent sent(log, 0);
  SegmentPins pins;
  log.pin_segments(0, 39, pins);
  const std::size_t closed = log.closed_segments().size();
  ASSERT_GT(closed, 1u);
  // The cleaner found every batch of the first closed segments superseded.
  log.replace_segments(0, std::vector<CleanedSegment>(closed - 1));
  EXPECT_LT(log.segment_count(), closed);
  BatchLog other = small_segment_log();
  sent.expect_unchanged();
}

TEST(BatchLogPins, PinnedBytesOutliveTheLog) {
  std::optional<BatchLog> log(small_segment_log());
  const Sent sent(*log, 5);
  SegmentPins pins;
  log->pin_segments(5, 39, pins);
  log.reset();  // the topic was deleted
  BatchLog other = small_segment_log();
  sent.expect_unchanged();
}

TEST(BatchLogPins, ASegmentDroppedWhilePinnedCountsWholeUntilTheLastPinGoes) {
  auto released = std::make_shared<ReleasedSegmentMemory>();
  BatchLog log = small_segment_log();
  log.set_released_segment_memory(released);
  const std::size_t memory = log.memory_bytes();
  SegmentPins first_response;
  log.pin_segments(0, 0, first_response);  // the first segment, for one batch of it
  SegmentPins second_response;
  log.pin_segments(0, 0, second_response);
  ASSERT_EQ(first_response.size(), 1u);

  // Retention drops every segment; only the pinned one is still kept.
  const std::size_t freed = log.drop_segments_beyond_size(0);
  EXPECT_EQ(log.segment_count(), 0u);
  EXPECT_EQ(freed, memory);
  EXPECT_EQ(released->segments(), 1u);
  // Its whole capacity (the first segment is the smallest, kMinSegmentBytes or more), not
  // the one batch the responses send from it.
  EXPECT_GE(released->bytes(), static_cast<std::int64_t>(BatchLog::kMinSegmentBytes));
  EXPECT_LT(released->bytes(), static_cast<std::int64_t>(memory));

  first_response.clear();
  EXPECT_EQ(released->segments(), 1u);  // the second response still pins it
  second_response.clear();
  EXPECT_EQ(released->segments(), 0u);
  EXPECT_EQ(released->bytes(), 0);
}

TEST(BatchLogPins, SegmentsDroppedUnpinnedAreNotCounted) {
  auto released = std::make_shared<ReleasedSegmentMemory>();
  BatchLog log = small_segment_log();
  log.set_released_segment_memory(released);
  SegmentPins pins;
  log.pin_segments(39, 39, pins);  // the last segment only
  while (log.segment_count() > 1) log.evict_oldest_segment();
  log.delete_records_before(35);
  EXPECT_EQ(released->segments(), 0u);
  EXPECT_EQ(released->bytes(), 0);
}

TEST(BatchLogPins, TheCleanerReplacingAndTheLogGoingAwayReleasePinnedSegmentsToo) {
  auto released = std::make_shared<ReleasedSegmentMemory>();
  std::optional<BatchLog> log(small_segment_log());
  log->set_released_segment_memory(released);
  const std::size_t closed = log->closed_segments().size();
  ASSERT_GT(closed, 2u);
  SegmentPins pins;
  log->pin_segments(0, 39, pins);
  log->replace_segments(0, std::vector<CleanedSegment>(2));
  EXPECT_EQ(released->segments(), 2u);
  const std::int64_t two = released->bytes();
  EXPECT_GT(two, 0);
  const std::size_t rest = log->segment_count();
  log.reset();  // the topic was deleted
  EXPECT_EQ(released->segments(), 2u + rest);
  EXPECT_GT(released->bytes(), two);
  pins.clear();
  EXPECT_EQ(released->segments(), 0u);
  EXPECT_EQ(released->bytes(), 0);
}

}  // namespace
}  // namespace kgroups::broker
