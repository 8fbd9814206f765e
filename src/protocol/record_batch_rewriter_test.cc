// SPDX-License-Identifier: Apache-2.0
#include "protocol/record_batch_rewriter.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "protocol/batch_records.h"
#include "protocol/record_batch.h"
#include "protocol/record_batch_builder.h"
#include "protocol/record_compressor.h"

namespace kgroups::protocol {
namespace {

std::vector<std::uint8_t> three_records(Compression codec = Compression::kNone) {
  RecordBatchBuilder builder;
  builder.set_producer(42, 3, 100);
  builder.add(ByteView::of("a"), ByteView::of("1"), 5000);
  builder.add(ByteView::of("b"), std::nullopt, 5007);
  builder.add(ByteView::of("c"), ByteView::of("3"), 5003);
  std::vector<std::uint8_t> batch =
      codec == Compression::kNone ? builder.build() : build_compressed_batch(builder, codec);
  write_base_offset(batch, 900);  // as the log stores it
  return batch;
}

TEST(RecordBatchRewriter, ReadsKeysValuesOffsetsAndTimestamps) {
  RecordBatchRewriter rewriter(1 << 20);
  const auto records = rewriter.read(three_records(Compression::kZstd));
  ASSERT_TRUE(records.has_value());
  ASSERT_EQ(records->size(), 3u);
  EXPECT_EQ((*records)[1].offset_delta, 1);
  EXPECT_EQ((*records)[1].key, ByteView::of("b"));
  EXPECT_FALSE((*records)[1].value.has_value());
  EXPECT_EQ((*records)[2].value, ByteView::of("3"));
  EXPECT_EQ((*records)[2].timestamp, 5003);
}

TEST(RecordBatchRewriter, KeepsTheHeaderFieldsAndOffsetDeltasOfTheRecordsKept) {
  RecordBatchRewriter rewriter(1 << 20);
  const std::vector<std::uint8_t> batch = three_records();
  ASSERT_TRUE(rewriter.read(batch).has_value());
  std::vector<std::uint8_t> out;
  const std::vector<std::uint8_t> keep = {0, 0, 1};
  rewriter.write(batch, keep, -1, out);
  const auto header = parse_record_batch_header(out);
  ASSERT_TRUE(header.has_value());
  EXPECT_EQ(header->base_offset, 900);
  EXPECT_EQ(header->last_offset_delta, 2);
  EXPECT_EQ(header->record_count, 1);
  EXPECT_EQ(header->producer_id, 42);
  EXPECT_EQ(header->producer_epoch, 3);
  EXPECT_EQ(header->base_sequence, 100);
  EXPECT_EQ(header->max_timestamp, 5003);
  EXPECT_EQ(header->crc, compute_batch_crc(out));
  EXPECT_EQ(header->size_bytes(), out.size());
  const auto records = decode_batch_records(out);
  ASSERT_TRUE(records.has_value());
  ASSERT_EQ(records->size(), 1u);
  EXPECT_EQ((*records)[0].offset_delta, 2);
  EXPECT_EQ((*records)[0].key, ByteView::of("c"));
}

TEST(RecordBatchRewriter, ADeleteHorizonMovesTheBaseTimestampButNoRecordTimestamp) {
  RecordBatchRewriter rewriter(1 << 20);
  const std::vector<std::uint8_t> batch = three_records(Compression::kLz4);
  ASSERT_TRUE(rewriter.read(batch).has_value());
  std::vector<std::uint8_t> out;
  const std::vector<std::uint8_t> keep = {1, 1, 0};
  rewriter.write(batch, keep, 86405000, out);
  const auto header = parse_record_batch_header(out);
  ASSERT_TRUE(header.has_value());
  EXPECT_EQ(delete_horizon_ms(*header), 86405000);
  EXPECT_EQ(header->compression(), Compression::kLz4);
  EXPECT_EQ(header->crc, compute_batch_crc(out));
  const auto records = rewriter.read(out);
  ASSERT_TRUE(records.has_value());
  ASSERT_EQ(records->size(), 2u);
  EXPECT_EQ((*records)[0].timestamp, 5000);
  EXPECT_EQ((*records)[1].timestamp, 5007);
  EXPECT_EQ((*records)[1].offset_delta, 1);
  EXPECT_FALSE(delete_horizon_ms(*parse_record_batch_header(batch)).has_value());
}

TEST(RecordBatchRewriter, ABatchWithNoRecordKeptIsAnUncompressedHeader) {
  RecordBatchRewriter rewriter(1 << 20);
  const std::vector<std::uint8_t> batch = three_records(Compression::kGzip);
  ASSERT_TRUE(rewriter.read(batch).has_value());
  std::vector<std::uint8_t> out;
  const std::vector<std::uint8_t> keep = {0, 0, 0};
  rewriter.write(batch, keep, -1, out);
  const auto header = parse_record_batch_header(out);
  ASSERT_TRUE(header.has_value());
  EXPECT_EQ(out.size(), kBatchHeaderSize);
  EXPECT_EQ(header->record_count, 0);
  EXPECT_EQ(header->last_offset_delta, 2);
  EXPECT_EQ(header->compression(), Compression::kNone);
  EXPECT_EQ(header->crc, compute_batch_crc(out));
}

TEST(RecordBatchRewriter, RefusesRecordsThatDoNotParse) {
  RecordBatchRewriter rewriter(1 << 20);
  std::vector<std::uint8_t> batch = three_records();
  batch.resize(batch.size() - 2);
  // Cut short, with batch_length still claiming the full size.
  EXPECT_FALSE(rewriter.read(batch).has_value());
}

}  // namespace
}  // namespace kgroups::protocol
