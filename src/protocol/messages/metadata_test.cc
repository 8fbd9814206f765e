// SPDX-License-Identifier: Apache-2.0

#include "protocol/messages/metadata.h"

#include <gtest/gtest.h>

#include "protocol/messages/round_trip.h"

namespace kgroups::protocol {
namespace {

MetadataResponse sample_response(std::int16_t version) {
  MetadataResponse response;
  if (version >= 3) response.throttle_time_ms = 5;
  MetadataResponse::Broker broker{.node_id = 1, .host = "127.0.0.1", .port = 9092};
  if (version >= 1) broker.rack = "rack-a";
  response.brokers = {broker, {.node_id = 2, .host = "localhost", .port = 9093}};
  if (version >= 2) response.cluster_id = "kgroups";
  if (version >= 1) response.controller_id = 1;
  MetadataResponse::Partition partition;
  partition.partition_index = 3;
  partition.leader_id = 1;
  partition.replica_nodes = {1};
  partition.isr_nodes = {1};
  if (version >= 5) partition.offline_replicas = {2};
  MetadataResponse::Topic topic;
  topic.name = "orders";
  topic.is_internal = version >= 1;
  if (version >= 7) partition.leader_epoch = 0;
  topic.partitions = {partition,
                      {.error_code = ErrorCode::kLeaderNotAvailable, .partition_index = 4}};
  if (version >= 10) topic.topic_id = {0xAB, 1};
  response.topics = {topic, {.error_code = ErrorCode::kUnknownTopicOrPartition, .name = "missing"}};
  return response;
}

TEST(Metadata, RequestRoundTripsInEveryVersion) {
  expect_round_trip_all_versions<MetadataRequest>([](std::int16_t version) {
    MetadataRequest request;
    request.topics = std::vector<MetadataRequest::Topic>{{.name = "orders"}, {.name = "payments"}};
    if (version >= 10) (*request.topics)[1] = {.topic_id = {1, 2}, .name = std::nullopt};
    if (version >= 4) request.allow_auto_topic_creation = false;
    return request;
  });
  for (std::int16_t version = 1; version <= MetadataRequest::kMaxVersion; ++version) {
    expect_round_trip(MetadataRequest{.topics = std::nullopt}, version);
    expect_round_trip(MetadataRequest{.topics = std::vector<MetadataRequest::Topic>{}}, version);
  }
  expect_unsupported_versions_rejected<MetadataRequest>();
}

TEST(Metadata, V0HasNoNullTopicListSoNullIsWrittenEmpty) {
  // v0 says "every topic" with an empty list (the handler reads it so); null exists from v1.
  const std::vector<std::uint8_t> bytes = {0, 0, 0, 0};
  WireReader reader(bytes);
  auto request = MetadataRequest::decode(reader, 0);
  ASSERT_TRUE(request);
  ASSERT_TRUE(request->topics.has_value());
  EXPECT_TRUE(request->topics->empty());
  EXPECT_EQ(encode_message(MetadataRequest{}, 0), bytes);
}

TEST(Metadata, V1NullTopicListMeansAllTopics) {
  const std::vector<std::uint8_t> bytes = {0xFF, 0xFF, 0xFF, 0xFF};
  WireReader reader(bytes);
  auto request = MetadataRequest::decode(reader, 1);
  ASSERT_TRUE(request);
  EXPECT_FALSE(request->topics.has_value());
}

TEST(Metadata, HugeOrNegativeTopicCountIsInvalidRequest) {
  for (const std::vector<std::uint8_t>& bytes :
       {std::vector<std::uint8_t>{0x7F, 0xFF, 0xFF, 0xFF, 0, 1, 'a', 1},
        std::vector<std::uint8_t>{0xFF, 0xFF, 0xFF, 0xFE, 1},
        std::vector<std::uint8_t>{0, 0, 0, 1, 0x7F, 0xFF, 'a', 1}}) {
    WireReader reader(bytes);
    auto request = MetadataRequest::decode(reader, 4);
    ASSERT_FALSE(request);
    EXPECT_EQ(request.error(), ErrorCode::kInvalidRequest);
  }
}

TEST(Metadata, ResponseRoundTripsInEveryVersion) {
  expect_round_trip_all_versions<MetadataResponse>(sample_response);
  expect_unsupported_versions_rejected<MetadataResponse>();
}

}  // namespace
}  // namespace kgroups::protocol
