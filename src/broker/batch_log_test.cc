// SPDX-License-Identifier: Apache-2.0
#include "broker/batch_log.h"

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

}  // namespace
}  // namespace kgroups::broker
