// SPDX-License-Identifier: Apache-2.0
#include "broker/storage/batch_log.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "protocol/batch_records.h"
#include "protocol/record_batch.h"
#include "protocol/record_batch_builder.h"

namespace kgroups::broker {
namespace {

using protocol::ByteView;

std::vector<std::uint8_t> make_batch(int records, const std::string& prefix,
                                     std::int64_t timestamp) {
  protocol::RecordBatchBuilder builder;
  for (int i = 0; i < records; ++i) {
    const std::string key = prefix + "-key-" + std::to_string(i);
    const std::string value = prefix + "-value-" + std::to_string(i);
    builder.add(ByteView::of(key), ByteView::of(value), timestamp + i);
  }
  return builder.build();
}

std::int64_t append(BatchLog& log, const std::vector<std::uint8_t>& batch) {
  const auto header = protocol::parse_record_batch_header(batch);
  EXPECT_TRUE(header.has_value());
  return log.append(batch, header->last_offset_delta, header->max_timestamp);
}

TEST(BatchLog, AssignsContiguousBaseOffsetsAndAdvancesTheHighWatermark) {
  BatchLog log;
  EXPECT_EQ(log.high_watermark(), 0);
  EXPECT_EQ(append(log, make_batch(3, "a", 1000)), 0);
  EXPECT_EQ(append(log, make_batch(1, "b", 2000)), 3);
  EXPECT_EQ(append(log, make_batch(5, "c", 3000)), 4);
  EXPECT_EQ(log.high_watermark(), 9);
  EXPECT_EQ(log.log_start_offset(), 0);
  EXPECT_EQ(log.batch_count(), 3u);
}

TEST(BatchLog, WritesTheBaseOffsetAndKeepsTheCrcValid) {
  BatchLog log;
  append(log, make_batch(2, "a", 1000));
  const std::vector<std::uint8_t> second = make_batch(4, "b", 2000);
  append(log, second);

  const auto batches = log.batches_from(2);
  ASSERT_EQ(batches.size(), 1u);
  const auto stored = batches[0].bytes();
  ASSERT_EQ(stored.size(), second.size());
  const auto header = protocol::parse_record_batch_header(stored);
  ASSERT_TRUE(header.has_value());
  EXPECT_EQ(header->base_offset, 2);
  EXPECT_EQ(header->crc, protocol::compute_batch_crc(stored));
  // Everything after the base offset is exactly what the producer sent.
  EXPECT_TRUE(std::equal(stored.begin() + 8, stored.end(), second.begin() + 8));
  // And the stored batch still validates as a whole and decodes to the producer's records.
  const auto split = protocol::split_record_batches(stored);
  ASSERT_TRUE(split.has_value());
  const auto records = protocol::decode_batch_records(stored);
  ASSERT_TRUE(records.has_value());
  ASSERT_EQ(records->size(), 4u);
  EXPECT_EQ((*records)[3].key, ByteView::of("b-key-3"));
  EXPECT_EQ((*records)[3].value, ByteView::of("b-value-3"));
}

TEST(BatchLog, BatchesFromStartsAtTheBatchHoldingTheOffset) {
  BatchLog log;
  append(log, make_batch(3, "a", 1000));  // 0-2
  append(log, make_batch(3, "b", 2000));  // 3-5
  append(log, make_batch(3, "c", 3000));  // 6-8
  EXPECT_EQ(log.batches_from(0).size(), 3u);
  EXPECT_EQ(log.batches_from(2).size(), 3u);
  EXPECT_EQ(log.batches_from(3).size(), 2u);
  EXPECT_EQ(log.batches_from(4).front().base_offset, 3);
  EXPECT_EQ(log.batches_from(8).front().base_offset, 6);
  EXPECT_EQ(log.batches_from(8).front().last_offset, 8);
  EXPECT_TRUE(log.batches_from(9).empty());
  EXPECT_TRUE(log.batches_from(-1).empty());
}

TEST(BatchLog, StoredBytesStayPutAcrossManySegments) {
  BatchLog log;
  // About 3 MiB of batches, so the log spans several 1 MiB segments.
  const std::vector<std::uint8_t> first = make_batch(10, "first", 1);
  append(log, first);
  const std::uint8_t* first_data = log.batches_from(0).front().data;
  const std::string big_value(40000, 'v');
  std::int64_t expected_offset = 10;
  for (int i = 0; i < 80; ++i) {
    protocol::RecordBatchBuilder builder;
    builder.add(ByteView::of("k"), ByteView::of(big_value), 5);
    EXPECT_EQ(append(log, builder.build()), expected_offset);
    ++expected_offset;
  }
  EXPECT_EQ(log.batches_from(0).front().data, first_data);
  EXPECT_TRUE(std::equal(first.begin() + 8, first.end(), first_data + 8));
  EXPECT_EQ(log.high_watermark(), 90);
  EXPECT_GT(log.size_bytes(), 80u * 40000u);
}

TEST(BatchLog, StoresABatchLargerThanASegment) {
  BatchLog log;
  const std::string huge(3 << 20, 'x');
  protocol::RecordBatchBuilder builder;
  builder.add(ByteView::of("k"), ByteView::of(huge), 5);
  const std::vector<std::uint8_t> batch = builder.build();
  append(log, make_batch(1, "small", 1));
  EXPECT_EQ(append(log, batch), 1);
  const auto stored = log.batches_from(1).front().bytes();
  EXPECT_EQ(protocol::compute_batch_crc(stored), protocol::parse_record_batch_header(stored)->crc);
}

TEST(BatchLog, FindsTheFirstBatchAtOrAfterATimestamp) {
  BatchLog log;
  append(log, make_batch(2, "a", 1000));  // max timestamp 1001
  append(log, make_batch(2, "b", 2000));  // max timestamp 2001
  ASSERT_NE(log.first_batch_at_or_after(0), nullptr);
  EXPECT_EQ(log.first_batch_at_or_after(0)->base_offset, 0);
  EXPECT_EQ(log.first_batch_at_or_after(1001)->base_offset, 0);
  EXPECT_EQ(log.first_batch_at_or_after(1002)->base_offset, 2);
  EXPECT_EQ(log.first_batch_at_or_after(2001)->base_offset, 2);
  EXPECT_EQ(log.first_batch_at_or_after(2002), nullptr);
}

// A batch of `count` records of `value_bytes` each, all with timestamp `timestamp`.
std::vector<std::uint8_t> sized_batch(int count, std::size_t value_bytes, std::int64_t timestamp) {
  protocol::RecordBatchBuilder builder;
  const std::string value(value_bytes, 'v');
  for (int i = 0; i < count; ++i) builder.add(ByteView::of("k"), ByteView::of(value), timestamp);
  return builder.build();
}

TEST(BatchLog, ANearEmptyPartitionCostsAboutAKilobyte) {
  BatchLog log;
  EXPECT_EQ(log.memory_bytes(), 0u);
  append(log, make_batch(1, "a", 1000));
  EXPECT_EQ(log.segment_count(), 1u);
  EXPECT_LE(log.memory_bytes(), BatchLog::kMinSegmentBytes + sizeof(StoredBatch));
}

TEST(BatchLog, SegmentsDoubleUpToTheLimitAndABiggerBatchGetsItsOwn) {
  BatchLog log;
  log.set_segment_limit(std::size_t{8} << 10);
  const std::vector<std::uint8_t> batch = sized_batch(1, 300, 1000);  // about 370 bytes
  for (int i = 0; i < 200; ++i) append(log, batch);
  // 1 KiB, 2 KiB, 4 KiB, then 8 KiB segments: about 200 * 370 bytes in all.
  const std::size_t capacity = log.memory_bytes() - log.batch_count() * sizeof(StoredBatch);
  EXPECT_GE(capacity, log.size_bytes());
  // Less than a spare segment of 8 KiB, plus the ends left in 1 + 2 + 4 KiB ones.
  EXPECT_LT(capacity, log.size_bytes() + (std::size_t{16} << 10));
  EXPECT_GT(log.segment_count(), 8u);
  const std::size_t segments = log.segment_count();
  const std::vector<std::uint8_t> big = sized_batch(1, 20000, 1000);
  append(log, big);
  EXPECT_EQ(log.segment_count(), segments + 1);
  EXPECT_EQ(log.batches_from(200).front().size_bytes, big.size());
}

TEST(BatchLog, RetentionByTimeDropsOldSegmentsAndMovesTheLogStart) {
  BatchLog log;
  log.set_segment_limit(BatchLog::kMinSegmentBytes);
  const std::vector<std::uint8_t> old_batch = sized_batch(1, 900, 1000);  // one per segment
  const std::vector<std::uint8_t> new_batch = sized_batch(1, 900, 5000);
  append(log, old_batch);
  append(log, old_batch);
  append(log, new_batch);
  ASSERT_EQ(log.segment_count(), 3u);
  const std::size_t before = log.memory_bytes();
  const std::size_t freed = log.drop_segments_older_than(2000);
  EXPECT_EQ(freed, before - log.memory_bytes());
  EXPECT_GE(freed, 2 * BatchLog::kMinSegmentBytes);
  EXPECT_EQ(log.log_start_offset(), 2);
  EXPECT_EQ(log.high_watermark(), 3);
  EXPECT_EQ(log.batch_count(), 1u);
  EXPECT_TRUE(log.batches_from(1).empty());  // below the log start now
  EXPECT_EQ(log.batches_from(2).front().base_offset, 2);
  EXPECT_EQ(log.drop_segments_older_than(2000), 0u);
}

TEST(BatchLog, RetentionBySizeKeepsAtLeastTheRetentionBytes) {
  BatchLog log;
  log.set_segment_limit(BatchLog::kMinSegmentBytes);
  const std::vector<std::uint8_t> batch = sized_batch(1, 900, 1000);
  for (int i = 0; i < 10; ++i) append(log, batch);
  const auto retention = static_cast<std::int64_t>(3 * batch.size() + 1);
  log.drop_segments_beyond_size(retention);
  // Dropping one more would leave less than retention.bytes.
  EXPECT_EQ(log.batch_count(), 4u);
  EXPECT_GE(static_cast<std::int64_t>(log.size_bytes()), retention);
  EXPECT_EQ(log.log_start_offset(), 6);
}

TEST(BatchLog, EvictingEverythingLeavesAnEmptyLogThatGoesOnFromTheHighWatermark) {
  BatchLog log;
  append(log, make_batch(3, "a", 1000));
  EXPECT_GT(log.evict_oldest_segment(), 0u);
  EXPECT_EQ(log.evict_oldest_segment(), 0u);
  EXPECT_EQ(log.batch_count(), 0u);
  EXPECT_EQ(log.log_start_offset(), 3);
  EXPECT_EQ(log.high_watermark(), 3);
  EXPECT_TRUE(log.batches_from(3).empty());
  EXPECT_EQ(log.first_batch_at_or_after(0), nullptr);
  EXPECT_EQ(append(log, make_batch(2, "b", 2000)), 3);
  EXPECT_EQ(log.log_start_offset(), 3);
  EXPECT_EQ(log.batches_from(4).front().base_offset, 3);
}

TEST(BatchLog, DroppingMostOfALongLogGivesTheIndexMemoryBack) {
  BatchLog log;
  log.set_segment_limit(BatchLog::kMinSegmentBytes);
  const std::vector<std::uint8_t> batch = make_batch(1, "a", 1000);  // many per segment
  for (int i = 0; i < 5000; ++i) append(log, batch);
  while (log.segment_count() > 1) log.evict_oldest_segment();
  EXPECT_LT(log.memory_bytes(), BatchLog::kMinSegmentBytes + 200 * sizeof(StoredBatch));
  EXPECT_EQ(log.batches_from(log.log_start_offset()).size(), log.batch_count());
}

TEST(BatchLog, DroppingSegmentsMovesTheTransactionIndexStart) {
  BatchLog log;
  log.set_segment_limit(BatchLog::kMinSegmentBytes);
  const std::vector<std::uint8_t> batch = sized_batch(1, 900, 1000);  // one per segment
  // Offsets 0-1: producer 1 aborted; 2: producer 2 opens and stays open.
  log.transactions().on_transactional_append(1, append(log, batch));
  log.transactions().on_marker(1, append(log, batch), /*committed=*/false);
  log.transactions().on_transactional_append(2, append(log, batch));
  append(log, batch);
  EXPECT_EQ(log.last_stable_offset(), 2);
  EXPECT_EQ(log.transactions().aborted_count(), 1U);
  log.evict_oldest_segment();  // offset 0 gone; the abort marker at 1 stays
  EXPECT_EQ(log.transactions().aborted_count(), 1U);
  log.evict_oldest_segment();
  EXPECT_EQ(log.transactions().aborted_count(), 0U);
  log.drop_segments_beyond_size(0);  // everything: the open transaction now starts at 4
  EXPECT_EQ(log.log_start_offset(), 4);
  EXPECT_EQ(log.last_stable_offset(), 4);
  append(log, batch);
  EXPECT_EQ(log.last_stable_offset(), 4);
  EXPECT_EQ(log.high_watermark(), 5);
}

TEST(BatchLog, MaxRecordTimestampIsTheNewestOverAllSegments) {
  BatchLog log;
  EXPECT_EQ(log.max_record_timestamp(), -1);
  log.set_segment_limit(2 * BatchLog::kMinSegmentBytes);
  const std::int64_t timestamps[] = {1000, 5000, 2000, 3000, 9000, 4000, 1000, 7000};
  for (const std::int64_t timestamp : timestamps) append(log, sized_batch(1, 600, timestamp));
  ASSERT_GT(log.segment_count(), 2u);
  EXPECT_EQ(log.max_record_timestamp(), 9000);
  // The batch holding it is the one ListOffsets' max timestamp answers with.
  EXPECT_EQ(log.first_batch_at_or_after(log.max_record_timestamp())->base_offset, 4);
}

TEST(BatchLog, TimestampSearchFindsTheFirstBatchHoldingALaterRecordWhateverTheOrder) {
  BatchLog log;
  log.set_segment_limit(2 * BatchLog::kMinSegmentBytes);
  // Timestamps out of order, over several segments.
  const std::int64_t timestamps[] = {1000, 5000, 2000, 3000, 9000, 4000, 1000, 7000};
  for (const std::int64_t timestamp : timestamps) append(log, sized_batch(1, 600, timestamp));
  ASSERT_GT(log.segment_count(), 2u);
  const auto first_at_or_after = [&](std::int64_t timestamp) -> std::int64_t {
    const StoredBatch* batch = log.first_batch_at_or_after(timestamp);
    return batch == nullptr ? -1 : batch->base_offset;
  };
  for (const std::int64_t target : {0, 1000, 1001, 2500, 5000, 5001, 7000, 8000, 9000, 9001}) {
    std::int64_t expected = -1;
    for (std::size_t i = 0; i < std::size(timestamps); ++i) {
      if (timestamps[i] >= target) {
        expected = static_cast<std::int64_t>(i);
        break;
      }
    }
    EXPECT_EQ(first_at_or_after(target), expected) << "target " << target;
  }
}

}  // namespace
}  // namespace kgroups::broker
