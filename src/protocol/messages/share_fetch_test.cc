// SPDX-License-Identifier: Apache-2.0
//
// Share groups (KIP-932) on the wire, with bytes written out by hand from Kafka's message
// definitions: a ShareFetch v1 request and a ShareAcknowledge v1 request decode to the
// fields librdkafka 2.15 sends, and a ShareFetch v1 response encodes its records and
// acquired ranges in Kafka's order, with compact lengths and tagged-field sections.

#include "protocol/messages/share_fetch.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <vector>

#include "protocol/messages/round_trip.h"
#include "protocol/messages/share_acknowledge.h"
#include "protocol/record_batch_builder.h"

namespace kgroups::protocol {
namespace {

using Bytes = std::vector<std::uint8_t>;

void append(Bytes& out, std::initializer_list<std::uint8_t> bytes) { out.insert(out.end(), bytes); }

void append_int32(Bytes& out, std::int32_t value) {
  const auto bits = static_cast<std::uint32_t>(value);
  append(out, {static_cast<std::uint8_t>(bits >> 24), static_cast<std::uint8_t>(bits >> 16),
               static_cast<std::uint8_t>(bits >> 8), static_cast<std::uint8_t>(bits)});
}

void append_int64(Bytes& out, std::int64_t value) {
  append_int32(out, static_cast<std::int32_t>(static_cast<std::uint64_t>(value) >> 32));
  append_int32(out, static_cast<std::int32_t>(value & 0xFFFFFFFF));
}

// Topic ids 0x01..0x10 and 0x11..0x20.
Uuid topic_id(std::uint8_t first) {
  Uuid id{};
  for (std::size_t i = 0; i < id.size(); ++i) id[i] = static_cast<std::uint8_t>(first + i);
  return id;
}

void append_uuid(Bytes& out, const Uuid& id) { out.insert(out.end(), id.begin(), id.end()); }

TEST(ShareFetch, DecodesAHandBuiltVersionOneRequest) {
  Bytes bytes;
  append(bytes, {0x02, 'g'});          // group_id: compact string, length + 1
  append(bytes, {0x03, 'm', '1'});     // member_id
  append_int32(bytes, 0);              // share_session_epoch: open a session
  append_int32(bytes, 500);            // max_wait_ms
  append_int32(bytes, 1);              // min_bytes
  append_int32(bytes, 1048576);        // max_bytes
  append_int32(bytes, 200);            // max_records (v1+)
  append_int32(bytes, 100);            // batch_size (v1+)
  append(bytes, {0x02});               // topics: compact array of 1
  append_uuid(bytes, topic_id(0x01));  //   topic_id
  append(bytes, {0x02});               //   partitions: 1
  append_int32(bytes, 3);              //     partition_index
  append(bytes, {0x02});               //     acknowledgement_batches: 1
  append_int64(bytes, 5);              //       first_offset
  append_int64(bytes, 7);              //       last_offset
  append(bytes, {0x02, 0x01});         //       acknowledge_types: [accept]
  append(bytes, {0x00, 0x00, 0x00});   //     batch, partition and topic tags
  append(bytes, {0x02});               // forgotten_topics_data: 1
  append_uuid(bytes, topic_id(0x11));  //   topic_id
  append(bytes, {0x03});               //   partitions: 2
  append_int32(bytes, 0);
  append_int32(bytes, 4);
  append(bytes, {0x00});  //   forgotten topic tags
  append(bytes, {0x00});  // request tags

  WireReader reader(bytes);
  const Result<ShareFetchRequest> request = ShareFetchRequest::decode(reader, 1);
  ASSERT_TRUE(request.has_value());
  EXPECT_EQ(reader.remaining(), 0u);
  EXPECT_EQ(request->group_id, "g");
  EXPECT_EQ(request->member_id, "m1");
  EXPECT_EQ(request->share_session_epoch, 0);
  EXPECT_EQ(request->max_wait_ms, 500);
  EXPECT_EQ(request->min_bytes, 1);
  EXPECT_EQ(request->max_bytes, 1048576);
  EXPECT_EQ(request->max_records, 200);
  EXPECT_EQ(request->batch_size, 100);
  EXPECT_EQ(request->share_acquire_mode, 0);  // v2+ only
  EXPECT_FALSE(request->is_renew_ack);
  ASSERT_EQ(request->topics.size(), 1u);
  EXPECT_EQ(request->topics[0].topic_id, topic_id(0x01));
  ASSERT_EQ(request->topics[0].partitions.size(), 1u);
  const ShareFetchRequest::Partition& partition = request->topics[0].partitions[0];
  EXPECT_EQ(partition.partition_index, 3);
  ASSERT_EQ(partition.acknowledgement_batches.size(), 1u);
  EXPECT_EQ(partition.acknowledgement_batches[0].first_offset, 5);
  EXPECT_EQ(partition.acknowledgement_batches[0].last_offset, 7);
  EXPECT_EQ(partition.acknowledgement_batches[0].acknowledge_types, std::vector<std::int8_t>{1});
  ASSERT_EQ(request->forgotten_topics_data.size(), 1u);
  EXPECT_EQ(request->forgotten_topics_data[0].topic_id, topic_id(0x11));
  EXPECT_EQ(request->forgotten_topics_data[0].partitions, (std::vector<std::int32_t>{0, 4}));

  // The same message encodes back to the same bytes.
  EXPECT_EQ(encode_message(*request, 1), bytes);
}

TEST(ShareFetch, VersionTwoAddsTheAcquireModeAndRenewFlagAfterTheBatchSize) {
  ShareFetchRequest request;
  request.group_id = "g";
  request.member_id = "m1";
  request.batch_size = 100;
  request.share_acquire_mode = 1;
  request.is_renew_ack = true;
  const Bytes v1 = encode_message(request, 1);
  const Bytes v2 = encode_message(request, 2);
  ASSERT_EQ(v2.size(), v1.size() + 2);
  // group_id (2) + member_id (3) + six int32 fields: batch_size ends at byte 29.
  EXPECT_EQ(Bytes(v1.begin(), v1.begin() + 29), Bytes(v2.begin(), v2.begin() + 29));
  EXPECT_EQ(v2[29], 1);  // share_acquire_mode: record-limit
  EXPECT_EQ(v2[30], 1);  // is_renew_ack: true
  EXPECT_EQ(Bytes(v1.begin() + 29, v1.end()), Bytes(v2.begin() + 31, v2.end()));
}

TEST(ShareFetch, EncodesAVersionOneResponseWithRecordsAndAcquiredRanges) {
  RecordBatchBuilder builder;
  builder.add(ByteView::of("k0"), ByteView::of("v0"), 1000);
  builder.add(ByteView::of("k1"), ByteView::of("v1"), 1001);
  builder.add(ByteView::of("k2"), ByteView::of("v2"), 1002);
  const Bytes batch = builder.build();
  ASSERT_LT(batch.size() + 1, 0x80u) << "the test writes the records length as one varint byte";

  ShareFetchResponse response;
  response.acquisition_lock_timeout_ms = 30000;
  ShareFetchResponse::Partition partition;
  partition.partition_index = 3;
  partition.current_leader = {.leader_id = 1, .leader_epoch = 0};
  partition.records = {ByteView(batch.data(), batch.size())};
  partition.acquired_records = {{.first_offset = 0, .last_offset = 1, .delivery_count = 1},
                                {.first_offset = 2, .last_offset = 2, .delivery_count = 2}};
  response.responses = {{.topic_id = topic_id(0x01), .partitions = {partition}}};

  Bytes expected;
  append_int32(expected, 0);              // throttle_time_ms
  append(expected, {0x00, 0x00});         // error_code
  append(expected, {0x00});               // error_message: null
  append_int32(expected, 30000);          // acquisition_lock_timeout_ms
  append(expected, {0x02});               // responses: compact array of 1
  append_uuid(expected, topic_id(0x01));  //   topic_id
  append(expected, {0x02});               //   partitions: 1
  append_int32(expected, 3);              //     partition_index
  append(expected, {0x00, 0x00, 0x00});   //     error_code, error_message null
  append(expected, {0x00, 0x00, 0x00});   //     acknowledge_error_code and message
  append_int32(expected, 1);              //     current_leader.leader_id
  append_int32(expected, 0);              //     current_leader.leader_epoch
  append(expected, {0x00});               //     current_leader tags
  append(expected, {static_cast<std::uint8_t>(batch.size() + 1)});  // records: compact bytes
  expected.insert(expected.end(), batch.begin(), batch.end());
  append(expected, {0x03});  //     acquired_records: 2
  append_int64(expected, 0);
  append_int64(expected, 1);
  append(expected, {0x00, 0x01, 0x00});  //       delivery_count 1, tags
  append_int64(expected, 2);
  append_int64(expected, 2);
  append(expected, {0x00, 0x02, 0x00});  //       delivery_count 2, tags
  append(expected, {0x00, 0x00});        //     partition and topic tags
  append(expected, {0x01});              // node_endpoints: empty
  append(expected, {0x00});              // response tags

  EXPECT_EQ(encode_message(response, 1), expected);
  WireReader reader(expected);
  const Result<ShareFetchResponse> decoded = ShareFetchResponse::decode(reader, 1);
  ASSERT_TRUE(decoded.has_value());
  ASSERT_EQ(decoded->responses.size(), 1u);
  ASSERT_EQ(decoded->responses[0].partitions.size(), 1u);
  const ShareFetchResponse::Partition& read = decoded->responses[0].partitions[0];
  ASSERT_EQ(read.records.size(), 1u);
  EXPECT_EQ(Bytes(read.records[0].begin(), read.records[0].end()), batch);
  EXPECT_EQ(read.acquired_records, partition.acquired_records);
}

TEST(ShareFetch, EveryVersionRoundTrips) {
  expect_round_trip_all_versions<ShareFetchRequest>([](std::int16_t version) {
    ShareFetchRequest request{.group_id = "g", .member_id = "m1", .share_session_epoch = 4};
    request.topics = {{.topic_id = topic_id(1),
                       .partitions = {{.partition_index = 0,
                                       .acknowledgement_batches = {{0, 3, {1, 0, 2, 3}}}}}}};
    if (version >= 2) request.is_renew_ack = true;
    return request;
  });
  expect_unsupported_versions_rejected<ShareFetchRequest>();
  expect_unsupported_versions_rejected<ShareFetchResponse>();
}

TEST(ShareAcknowledge, DecodesAHandBuiltVersionOneRequest) {
  Bytes bytes;
  append(bytes, {0x02, 'g'});          // group_id
  append(bytes, {0x03, 'm', '1'});     // member_id
  append_int32(bytes, 2);              // share_session_epoch
  append(bytes, {0x02});               // topics: 1
  append_uuid(bytes, topic_id(0x01));  //   topic_id
  append(bytes, {0x02});               //   partitions: 1
  append_int32(bytes, 3);              //     partition_index
  append(bytes, {0x03});               //     acknowledgement_batches: 2
  append_int64(bytes, 0);              //       first_offset
  append_int64(bytes, 1);              //       last_offset
  append(bytes, {0x02, 0x01, 0x00});   //       [accept], tags
  append_int64(bytes, 2);
  append_int64(bytes, 4);
  append(bytes, {0x04, 0x03, 0x00, 0x02, 0x00});  // [reject, gap, release], tags
  append(bytes, {0x00, 0x00});                    //     partition and topic tags
  append(bytes, {0x00});                          // request tags

  WireReader reader(bytes);
  const Result<ShareAcknowledgeRequest> request = ShareAcknowledgeRequest::decode(reader, 1);
  ASSERT_TRUE(request.has_value());
  EXPECT_EQ(reader.remaining(), 0u);
  EXPECT_EQ(request->group_id, "g");
  EXPECT_EQ(request->member_id, "m1");
  EXPECT_EQ(request->share_session_epoch, 2);
  EXPECT_FALSE(request->is_renew_ack);  // v2+ only
  ASSERT_EQ(request->topics.size(), 1u);
  EXPECT_EQ(request->topics[0].topic_id, topic_id(0x01));
  ASSERT_EQ(request->topics[0].partitions.size(), 1u);
  const auto& batches = request->topics[0].partitions[0].acknowledgement_batches;
  ASSERT_EQ(batches.size(), 2u);
  EXPECT_EQ(batches[0].first_offset, 0);
  EXPECT_EQ(batches[0].last_offset, 1);
  EXPECT_EQ(batches[0].acknowledge_types, std::vector<std::int8_t>{1});
  EXPECT_EQ(batches[1].first_offset, 2);
  EXPECT_EQ(batches[1].last_offset, 4);
  EXPECT_EQ(batches[1].acknowledge_types, (std::vector<std::int8_t>{3, 0, 2}));
  EXPECT_EQ(encode_message(*request, 1), bytes);
}

}  // namespace
}  // namespace kgroups::protocol
