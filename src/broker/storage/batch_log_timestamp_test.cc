// SPDX-License-Identifier: Apache-2.0
// BatchLog::append with message.timestamp.type=LogAppendTime: the stored batch carries the
// broker's clock, as Kafka's LogValidator writes it.
#include <gtest/gtest.h>

#include "broker/storage/batch_log.h"
#include "protocol/record_batch.h"
#include "protocol/record_batch_builder.h"

namespace kgroups::broker {
namespace {

std::vector<std::uint8_t> batch_at(std::int64_t timestamp) {
  protocol::RecordBatchBuilder builder;
  builder.add(protocol::ByteView::of("k"), protocol::ByteView::of("v"), timestamp);
  builder.add(protocol::ByteView::of("k"), protocol::ByteView::of("w"), timestamp + 5);
  return builder.build();
}

TEST(BatchLogTimestamps, LogAppendTimeStampsTheStoredBatchWithTheBrokersClock) {
  BatchLog log;
  const std::vector<std::uint8_t> batch = batch_at(1000);
  const std::int64_t now = 1'700'000'000'000;
  log.append(batch, 1, 1005, now, 1, TimestampType::kLogAppendTime);
  const StoredBatch& stored = log.batches_from(0).front();
  EXPECT_EQ(stored.max_timestamp, now);
  const auto header = protocol::parse_record_batch_header(stored.bytes());
  ASSERT_TRUE(header.has_value());
  EXPECT_TRUE(header->log_append_time());
  EXPECT_EQ(header->max_timestamp, now);
  EXPECT_EQ(header->base_timestamp, 1000);  // the records are left as sent
  EXPECT_EQ(header->crc, protocol::compute_batch_crc(stored.bytes()));
  EXPECT_EQ(log.first_batch_at_or_after(now), &stored);
  EXPECT_EQ(log.max_record_timestamp(), now);
}

TEST(BatchLogTimestamps, CreateTimeKeepsTheProducersTimestamps) {
  BatchLog log;
  const std::vector<std::uint8_t> batch = batch_at(1000);
  log.append(batch, 1, 1005, 1'700'000'000'000, 1, TimestampType::kCreateTime);
  const auto header = protocol::parse_record_batch_header(log.batches_from(0).front().bytes());
  ASSERT_TRUE(header.has_value());
  EXPECT_FALSE(header->log_append_time());
  EXPECT_EQ(header->max_timestamp, 1005);
  EXPECT_EQ(header->crc, protocol::compute_batch_crc(log.batches_from(0).front().bytes()));
}

}  // namespace
}  // namespace kgroups::broker
