// SPDX-License-Identifier: Apache-2.0

#include "protocol/messages/produce.h"

#include <gtest/gtest.h>

#include "protocol/messages/round_trip.h"
#include "protocol/record_batch.h"
#include "protocol/record_batch_builder.h"

namespace kgroups::protocol {
namespace {

TEST(Produce, RequestRoundTripsInEveryVersion) {
  RecordBatchBuilder builder;
  builder.add(ByteView::of("k1"), ByteView::of("v1"), 1000);
  builder.add(std::nullopt, ByteView::of("v2"), 1001);
  const std::vector<std::uint8_t> batch = builder.build();
  expect_round_trip_all_versions<ProduceRequest>([&](std::int16_t version) {
    ProduceRequest request;
    if (version >= 3) request.transactional_id = "txn-1";
    request.acks = 1;
    request.timeout_ms = 30000;
    request.topic_data = {{"orders", {{0, ByteView(batch)}, {5, std::nullopt}}}, {"empty", {}}};
    return request;
  });
  expect_unsupported_versions_rejected<ProduceRequest>();
}

TEST(Produce, DecodedRecordsViewTheFrameAndSplitIntoBatches) {
  RecordBatchBuilder builder;
  builder.add(ByteView::of("key"), ByteView::of("value"), 42);
  const std::vector<std::uint8_t> batch = builder.build();
  ProduceRequest request;
  request.topic_data = {{"t", {{2, ByteView(batch)}}}};
  const std::vector<std::uint8_t> frame = encode_message(request, 3);
  WireReader reader(frame);
  auto decoded = ProduceRequest::decode(reader, 3);
  ASSERT_TRUE(decoded);
  const ByteView records = *decoded->topic_data[0].partition_data[0].records;
  EXPECT_GE(records.data(), frame.data());
  EXPECT_LE(records.data() + records.size(), frame.data() + frame.size());
  auto batches = split_record_batches(records);
  ASSERT_TRUE(batches);
  ASSERT_EQ(batches->size(), 1u);
  EXPECT_EQ((*batches)[0].header.record_count, 1);
}

TEST(Produce, ResponseRoundTripsInEveryVersion) {
  expect_round_trip_all_versions<ProduceResponse>([](std::int16_t version) {
    ProduceResponse response;
    ProduceResponse::PartitionResponse ok;
    ok.index = 0;
    ok.base_offset = 1234;
    if (version >= 2) ok.log_append_time_ms = 99;
    if (version >= 5) ok.log_start_offset = 0;
    ProduceResponse::PartitionResponse bad;
    bad.index = 1;
    bad.error_code = ErrorCode::kCorruptMessage;
    if (version >= 8) {
      bad.record_errors = {{0, "bad crc"}, {1, std::nullopt}};
      bad.error_message = "CRC mismatch";
    }
    response.responses = {{"orders", {ok, bad}}};
    if (version >= 1) response.throttle_time_ms = 3;
    return response;
  });
  expect_unsupported_versions_rejected<ProduceResponse>();
}

TEST(Produce, HugeRecordsLengthIsRejected) {
  // v3: null txn id, acks, timeout, 1 topic "t", 1 partition 0, records length 0x7FFFFFFF.
  const std::vector<std::uint8_t> frame = {0xFF, 0xFF, 0, 1,    0,    0,    0x75, 0x30, 0, 0,
                                           0,    1,    0, 1,    't',  0,    0,    0,    1, 0,
                                           0,    0,    0, 0x7F, 0xFF, 0xFF, 0xFF, 1,    2, 3};
  WireReader reader(frame);
  auto decoded = ProduceRequest::decode(reader, 3);
  ASSERT_FALSE(decoded);
  EXPECT_EQ(decoded.error(), ErrorCode::kInvalidRequest);
}

}  // namespace
}  // namespace kgroups::protocol
