// SPDX-License-Identifier: Apache-2.0

#include "protocol/messages/fetch.h"

#include <gtest/gtest.h>

#include "protocol/messages/round_trip.h"
#include "protocol/record_batch.h"
#include "protocol/record_batch_builder.h"

namespace kgroups::protocol {
namespace {

TEST(Fetch, RequestRoundTripsInEveryVersion) {
  expect_round_trip_all_versions<FetchRequest>([](std::int16_t version) {
    FetchRequest request;
    request.max_wait_ms = 500;
    request.min_bytes = 1;
    if (version >= 3) request.max_bytes = 52428800;
    if (version >= 4) request.isolation_level = 1;
    if (version >= 7) {
      request.session_id = 12;
      request.session_epoch = 3;
      request.forgotten_topics_data = {{.topic = "old", .partitions = {1, 2}}};
      if (version >= 13) request.forgotten_topics_data[0] = {.topic_id = {1}, .partitions = {1, 2}};
    }
    FetchRequest::Partition partition;
    partition.partition = 2;
    partition.fetch_offset = 77;
    partition.partition_max_bytes = 1048576;
    if (version >= 5) partition.log_start_offset = 0;
    if (version >= 9) partition.current_leader_epoch = 4;
    if (version >= 12) partition.last_fetched_epoch = 3;
    if (version >= 17) partition.replica_directory_id = {7, 7};
    request.topics = {{.topic = "orders", .partitions = {partition}}, {.topic = "payments"}};
    if (version >= 13) {
      request.topics[0] = {.topic_id = {1, 2, 3}, .partitions = {partition}};
      request.topics[1] = {.topic_id = {4, 5, 6}};
    }
    if (version >= 15) request.replica_state = {.replica_id = -1, .replica_epoch = 9};
    if (version >= 11) request.rack_id = "rack-a";
    return request;
  });
  expect_unsupported_versions_rejected<FetchRequest>();
}

FetchResponse::Partition sample_partition(std::int16_t version, ByteView records) {
  FetchResponse::Partition partition;
  partition.partition_index = 1;
  partition.high_watermark = 10;
  if (version >= 4) {
    partition.last_stable_offset = 10;
    partition.aborted_transactions = std::vector<FetchResponse::AbortedTransaction>{{9, 3}};
  }
  if (version >= 5) partition.log_start_offset = 0;
  if (version >= 11) partition.preferred_read_replica = 1;
  if (!records.empty()) partition.records = {records};
  return partition;
}

TEST(Fetch, ResponseRoundTripsInEveryVersion) {
  RecordBatchBuilder builder;
  builder.add(ByteView::of("k"), ByteView::of("v"), 5);
  const std::vector<std::uint8_t> batch = builder.build();
  expect_round_trip_all_versions<FetchResponse>([&](std::int16_t version) {
    FetchResponse response;
    if (version >= 1) response.throttle_time_ms = 2;
    if (version >= 7) response.session_id = 5;
    FetchResponse::Partition empty = sample_partition(version, {});
    empty.partition_index = 0;
    empty.error_code = ErrorCode::kOffsetOutOfRange;
    response.responses = {
        {.topic = "orders", .partitions = {sample_partition(version, batch), empty}}};
    if (version >= 13) response.responses[0].topic = "";
    if (version >= 13) response.responses[0].topic_id = {9, 8, 7};
    if (version >= 12)
      response.responses[0].partitions[0].current_leader = {.leader_id = 1, .leader_epoch = 2};
    if (version >= 16)
      response.node_endpoints = {{.node_id = 1, .host = "localhost", .port = 9092}};
    return response;
  });
  expect_unsupported_versions_rejected<FetchResponse>();
}

TEST(Fetch, StoredBatchesAreWrittenBackToBackAsOneRecordsField) {
  RecordBatchBuilder first_builder;
  first_builder.add(ByteView::of("a"), ByteView::of("1"), 1);
  RecordBatchBuilder second_builder;
  second_builder.add(ByteView::of("b"), ByteView::of("2"), 2);
  std::vector<std::uint8_t> first = first_builder.build();
  std::vector<std::uint8_t> second = second_builder.build();
  write_base_offset(second, 1);
  std::vector<std::uint8_t> joined = first;
  joined.insert(joined.end(), second.begin(), second.end());

  FetchResponse chunked;
  chunked.responses = {{.topic = "t", .partitions = {sample_partition(4, {})}}};
  chunked.responses[0].partitions[0].records = {ByteView(first), ByteView(second)};
  FetchResponse whole = chunked;
  whole.responses[0].partitions[0].records = {ByteView(joined)};
  const std::vector<std::uint8_t> bytes = encode_message(chunked, 4);
  EXPECT_EQ(bytes, encode_message(whole, 4));

  WireReader reader(bytes);
  auto decoded = FetchResponse::decode(reader, 4);
  ASSERT_TRUE(decoded);
  auto batches = split_record_batches(decoded->responses[0].partitions[0].records.at(0));
  ASSERT_TRUE(batches);
  ASSERT_EQ(batches->size(), 2u);
  EXPECT_EQ((*batches)[1].header.base_offset, 1);
}

TEST(Fetch, EmptyRecordsAreWrittenAsZeroLengthNotNull) {
  FetchResponse response;
  response.responses = {{.topic = "t", .partitions = {FetchResponse::Partition{}}}};
  const std::vector<std::uint8_t> bytes = encode_message(response, 4);
  // The last four bytes are the records length.
  ASSERT_GE(bytes.size(), 4u);
  EXPECT_EQ(std::vector<std::uint8_t>(bytes.end() - 4, bytes.end()),
            (std::vector<std::uint8_t>{0, 0, 0, 0}));
}

}  // namespace
}  // namespace kgroups::protocol
