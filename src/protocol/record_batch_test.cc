// SPDX-License-Identifier: Apache-2.0

#include "protocol/record_batch.h"

#include <gtest/gtest.h>

#include "protocol/batch_records.h"
#include "protocol/crc32c.h"
#include "protocol/record_batch_builder.h"

namespace kgroups::protocol {
namespace {

std::vector<std::uint8_t> two_record_batch() {
  RecordBatchBuilder builder;
  builder.add(ByteView::of("key-1"), ByteView::of("value-1"), 1700000000000);
  const RecordHeader headers[] = {{"trace", ByteView::of("abc")}, {"empty", std::nullopt}};
  builder.add(std::nullopt, std::nullopt, 1700000000005, headers);
  return builder.build();
}

TEST(RecordBatch, BuilderWritesAValidHeader) {
  const std::vector<std::uint8_t> batch = two_record_batch();
  auto header = parse_record_batch_header(batch);
  ASSERT_TRUE(header);
  EXPECT_EQ(header->base_offset, 0);
  EXPECT_EQ(header->size_bytes(), batch.size());
  EXPECT_EQ(header->magic, 2);
  EXPECT_EQ(header->record_count, 2);
  EXPECT_EQ(header->last_offset_delta, 1);
  EXPECT_EQ(header->base_timestamp, 1700000000000);
  EXPECT_EQ(header->max_timestamp, 1700000000005);
  EXPECT_EQ(header->compression(), Compression::kNone);
  EXPECT_EQ(header->crc, crc32c(std::span(batch).subspan(21)));
}

TEST(RecordBatch, RecordsDecodeToWhatWasAdded) {
  const std::vector<std::uint8_t> batch = two_record_batch();
  auto records = decode_batch_records(batch);
  ASSERT_TRUE(records);
  ASSERT_EQ(records->size(), 2u);
  EXPECT_EQ((*records)[0].key, ByteView::of("key-1"));
  EXPECT_EQ((*records)[0].value, ByteView::of("value-1"));
  EXPECT_EQ((*records)[0].offset_delta, 0);
  EXPECT_EQ((*records)[1].key, std::nullopt);
  EXPECT_EQ((*records)[1].value, std::nullopt);
  EXPECT_EQ((*records)[1].timestamp_delta, 5);
  EXPECT_EQ((*records)[1].offset_delta, 1);
  ASSERT_EQ((*records)[1].headers.size(), 2u);
  EXPECT_EQ((*records)[1].headers[0].key, "trace");
  EXPECT_EQ((*records)[1].headers[0].value, ByteView::of("abc"));
  EXPECT_EQ((*records)[1].headers[1].value, std::nullopt);
}

TEST(RecordBatch, SplitsConcatenatedBatches) {
  std::vector<std::uint8_t> blob = two_record_batch();
  const std::size_t first_size = blob.size();
  RecordBatchBuilder builder;
  builder.add(ByteView::of("k"), ByteView::of("v"), 1);
  builder.build(blob);
  auto batches = split_record_batches(blob);
  ASSERT_TRUE(batches);
  ASSERT_EQ(batches->size(), 2u);
  EXPECT_EQ((*batches)[0].bytes.size(), first_size);
  EXPECT_EQ((*batches)[1].header.record_count, 1);
  EXPECT_EQ((*batches)[1].bytes.data(), blob.data() + first_size);
}

TEST(RecordBatch, EmptyBlobHasNoBatches) {
  auto batches = split_record_batches({});
  ASSERT_TRUE(batches);
  EXPECT_TRUE(batches->empty());
}

TEST(RecordBatch, FlippedByteFailsTheCrc) {
  std::vector<std::uint8_t> batch = two_record_batch();
  batch.back() ^= 0x01;
  auto batches = split_record_batches(batch);
  ASSERT_FALSE(batches);
  EXPECT_EQ(batches.error(), ErrorCode::kCorruptMessage);
}

TEST(RecordBatch, BaseOffsetAndLeaderEpochRewritesKeepTheCrcValid) {
  std::vector<std::uint8_t> batch = two_record_batch();
  write_base_offset(batch, 0x0102030405060708);
  write_partition_leader_epoch(batch, 7);
  auto batches = split_record_batches(batch);
  ASSERT_TRUE(batches);
  EXPECT_EQ((*batches)[0].header.base_offset, 0x0102030405060708);
  EXPECT_EQ((*batches)[0].header.partition_leader_epoch, 7);
}

TEST(RecordBatch, MaxTimestampRewriteKeepsTheBatchValid) {
  std::vector<std::uint8_t> batch = two_record_batch();
  write_max_timestamp(batch, 1700000000042);
  auto batches = split_record_batches(batch);  // checks the CRC
  ASSERT_TRUE(batches);
  EXPECT_EQ((*batches)[0].header.max_timestamp, 1700000000042);
  EXPECT_EQ((*batches)[0].header.base_timestamp, 1700000000000);
  EXPECT_EQ((*batches)[0].header.producer_id, -1);
}

TEST(RecordBatch, OldMessageFormatIsUnsupported) {
  std::vector<std::uint8_t> batch = two_record_batch();
  batch[kBatchMagicOffset] = 1;
  auto batches = split_record_batches(batch);
  ASSERT_FALSE(batches);
  EXPECT_EQ(batches.error(), ErrorCode::kUnsupportedForMessageFormat);
}

TEST(RecordBatch, TruncatedOrOverlongBatchIsCorrupt) {
  const std::vector<std::uint8_t> batch = two_record_batch();
  for (std::size_t size : {std::size_t{1}, std::size_t{17}, std::size_t{60}, batch.size() - 1}) {
    auto batches = split_record_batches(std::span(batch).first(size));
    ASSERT_FALSE(batches) << size;
    EXPECT_EQ(batches.error(), ErrorCode::kCorruptMessage) << size;
  }
  std::vector<std::uint8_t> negative = batch;
  negative[kBatchLengthOffset] = 0x80;  // batch_length < 0
  EXPECT_EQ(split_record_batches(negative).error(), ErrorCode::kCorruptMessage);
  std::vector<std::uint8_t> tiny = batch;
  tiny[kBatchLengthOffset] = 0;
  tiny[kBatchLengthOffset + 1] = 0;
  tiny[kBatchLengthOffset + 2] = 0;
  tiny[kBatchLengthOffset + 3] = 10;  // shorter than the header
  EXPECT_EQ(split_record_batches(tiny).error(), ErrorCode::kCorruptMessage);
}

// Re-signs a modified batch so that only the field under test is wrong.
void fix_crc(std::vector<std::uint8_t>& batch) {
  const std::uint32_t crc = compute_batch_crc(batch);
  for (int i = 0; i < 4; ++i) {
    batch[kBatchCrcOffset + i] = static_cast<std::uint8_t>(crc >> (24 - 8 * i));
  }
}

TEST(RecordBatch, CountThatDisagreesWithLastOffsetDeltaIsInvalid) {
  std::vector<std::uint8_t> batch = two_record_batch();
  batch[60] = 3;  // record_count 3, last_offset_delta 1
  fix_crc(batch);
  EXPECT_EQ(split_record_batches(batch).error(), ErrorCode::kInvalidRecord);
}

TEST(RecordBatch, UnknownCodecIsUnsupported) {
  std::vector<std::uint8_t> batch = two_record_batch();
  batch[kBatchAttributesOffset + 1] = 0x07;
  fix_crc(batch);
  EXPECT_EQ(split_record_batches(batch).error(), ErrorCode::kUnsupportedCompressionType);
}

TEST(RecordBatch, CompressedRecordsAreNotDecoded) {
  std::vector<std::uint8_t> batch = two_record_batch();
  batch[kBatchAttributesOffset + 1] = static_cast<std::uint8_t>(Compression::kGzip);
  fix_crc(batch);
  auto batches = split_record_batches(batch);
  ASSERT_TRUE(batches);  // stored as sent
  EXPECT_EQ((*batches)[0].header.compression(), Compression::kGzip);
  EXPECT_EQ(decode_batch_records(batch).error(), ErrorCode::kUnsupportedCompressionType);
}

TEST(RecordBatch, MalformedRecordsAreCorrupt) {
  std::vector<std::uint8_t> batch = two_record_batch();
  batch[kBatchHeaderSize] = 0x7F;  // first record claims a huge length
  EXPECT_EQ(decode_batch_records(batch).error(), ErrorCode::kCorruptMessage);
}

}  // namespace
}  // namespace kgroups::protocol
