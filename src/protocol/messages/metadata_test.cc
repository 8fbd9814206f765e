// SPDX-License-Identifier: Apache-2.0

#include "protocol/messages/metadata.h"

#include <gtest/gtest.h>

#include "protocol/messages/round_trip.h"

namespace kgroups::protocol {
namespace {

MetadataResponse sample_response(std::int16_t version) {
  MetadataResponse response;
  if (version >= 3) response.throttle_time_ms = 5;
  MetadataResponse::Broker broker{1, "127.0.0.1", 9092, std::nullopt};
  if (version >= 1) broker.rack = "rack-a";
  response.brokers = {broker, {2, "localhost", 9093, std::nullopt}};
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
  topic.partitions = {partition, {ErrorCode::kLeaderNotAvailable, 4, -1, {}, {}, {}}};
  response.topics = {topic, {ErrorCode::kUnknownTopicOrPartition, "missing", false, {}}};
  return response;
}

TEST(Metadata, RequestRoundTripsInEveryVersion) {
  expect_round_trip_all_versions<MetadataRequest>([](std::int16_t version) {
    MetadataRequest request;
    request.topics = std::vector<std::string_view>{"orders", "payments"};
    if (version >= 4) request.allow_auto_topic_creation = false;
    return request;
  });
  for (std::int16_t version = 1; version <= MetadataRequest::kMaxVersion; ++version) {
    expect_round_trip(MetadataRequest{std::nullopt, true}, version);
    expect_round_trip(MetadataRequest{std::vector<std::string_view>{}, true}, version);
  }
  expect_unsupported_versions_rejected<MetadataRequest>();
}

TEST(Metadata, V0EmptyTopicListMeansAllTopics) {
  const std::vector<std::uint8_t> bytes = {0, 0, 0, 0};
  WireReader reader(bytes);
  auto request = MetadataRequest::decode(reader, 0);
  ASSERT_TRUE(request);
  EXPECT_FALSE(request->topics.has_value());
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
