// SPDX-License-Identifier: Apache-2.0
//
// BatchLog::delete_records_before: DeleteRecords' move of the log start offset.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "broker/storage/batch_log.h"
#include "protocol/record_batch.h"
#include "protocol/record_batch_builder.h"

namespace kgroups::broker {
namespace {

std::vector<std::uint8_t> batch_of(int records, std::size_t value_bytes) {
  protocol::RecordBatchBuilder builder;
  const std::string value(value_bytes, 'v');
  for (int i = 0; i < records; ++i) {
    builder.add(protocol::ByteView::of("k"), protocol::ByteView::of(value), 1000 + i);
  }
  return builder.build();
}

void append(BatchLog& log, const std::vector<std::uint8_t>& batch) {
  const auto header = protocol::parse_record_batch_header(batch);
  ASSERT_TRUE(header.has_value());
  log.append(batch, header->last_offset_delta, header->max_timestamp);
}

// 10 batches of 4 records (offsets 0-39), about 300 bytes each: several segments.
BatchLog filled_log() {
  BatchLog log;
  for (int i = 0; i < 10; ++i) append(log, batch_of(4, 60));
  return log;
}

TEST(BatchLogDeleteRecords, AStartInsideABatchKeepsThatBatchAndRefusesReadsBelowIt) {
  BatchLog log = filled_log();
  log.delete_records_before(13);  // the 4th batch holds 12-15
  EXPECT_EQ(log.log_start_offset(), 13);
  EXPECT_TRUE(log.batches_from(12).empty());
  const auto from_start = log.batches_from(13);
  ASSERT_FALSE(from_start.empty());
  EXPECT_EQ(from_start.front().base_offset, 12);
  EXPECT_EQ(from_start.back().last_offset, 39);
  EXPECT_EQ(log.high_watermark(), 40);
}

TEST(BatchLogDeleteRecords, DropsOnlySegmentsWhollyBelowTheNewStartAndFreesTheirMemory) {
  BatchLog log = filled_log();
  const std::size_t segments = log.segment_count();
  ASSERT_GT(segments, 2u);
  const std::size_t memory = log.memory_bytes();
  const std::size_t freed = log.delete_records_before(30);
  EXPECT_LT(log.segment_count(), segments);
  EXPECT_EQ(freed, memory - log.memory_bytes());
  EXPECT_GT(freed, 0u);
  // Every batch holding an offset >= 30 is still there.
  EXPECT_EQ(log.batches_from(30).front().base_offset, 28);
  EXPECT_EQ(log.batches_from(30).size(), 3u);
}

TEST(BatchLogDeleteRecords, NeverMovesTheStartBackAndEmptiesTheLogAtTheHighWatermark) {
  BatchLog log = filled_log();
  log.delete_records_before(20);
  EXPECT_EQ(log.delete_records_before(5), 0u);
  EXPECT_EQ(log.log_start_offset(), 20);
  log.delete_records_before(40);
  EXPECT_EQ(log.log_start_offset(), 40);
  EXPECT_EQ(log.segment_count(), 0u);
  EXPECT_EQ(log.batch_count(), 0u);
  append(log, batch_of(2, 10));
  EXPECT_EQ(log.high_watermark(), 42);
  EXPECT_EQ(log.batches_from(40).front().base_offset, 40);
}

TEST(BatchLogDeleteRecords, RetentionAfterAStartInsideABatchMovesItForwardOnly) {
  BatchLog log = filled_log();
  log.delete_records_before(33);
  const std::int64_t start = log.log_start_offset();
  log.evict_oldest_segment();
  EXPECT_GT(log.log_start_offset(), start);
}

}  // namespace
}  // namespace kgroups::broker
