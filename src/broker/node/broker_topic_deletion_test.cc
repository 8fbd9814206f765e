// SPDX-License-Identifier: Apache-2.0
//
// Broker::delete_topic with the parts that keep a topic across time: a Fetch long-polling it
// (parked across a co_await) and the groups' committed offsets of it.
#include <gtest/gtest.h>

#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/io_context.hpp>
#include <optional>
#include <string>
#include <vector>

#include "broker/node/broker.h"
#include "protocol/record_batch.h"
#include "protocol/record_batch_builder.h"

namespace kgroups::broker {
namespace {

using protocol::ErrorCode;

constexpr std::int64_t kMachineBytes = std::int64_t{8} << 30;

// A Fetch of partitions 0 and 1 of `topic` (by name below v13, by id from v13) that waits up
// to the broker's cap for one byte.
protocol::FetchRequest long_poll(const StoredTopic& topic, std::int16_t version) {
  protocol::FetchRequest request;
  request.max_wait_ms = 30000;
  request.min_bytes = 1;
  auto& wanted = request.topics.emplace_back();
  if (version >= 13) {
    wanted.topic_id = topic.id;
  } else {
    wanted.topic = topic.name;
  }
  for (std::int32_t partition : {0, 1}) {
    wanted.partitions.push_back({.partition = partition, .partition_max_bytes = 1 << 20});
  }
  return request;
}

// Spawns the fetch; `answer` is set when it completes.
void spawn_fetch(asio::io_context& io, Broker& broker, const protocol::FetchRequest& request,
                 std::int16_t version, std::optional<protocol::FetchResponse>& answer) {
  asio::co_spawn(
      io,
      [&broker, &request, version, &answer]() -> asio::awaitable<void> {
        answer = co_await broker.fetches().fetch(request, version);
      },
      asio::detached);
}

void expect_every_partition(const protocol::FetchResponse& response, ErrorCode error) {
  ASSERT_EQ(response.responses.size(), 1u);
  ASSERT_EQ(response.responses[0].partitions.size(), 2u);
  for (const auto& partition : response.responses[0].partitions) {
    EXPECT_EQ(partition.error_code, error);
    EXPECT_TRUE(partition.records.empty());
  }
}

class BrokerTopicDeletion : public ::testing::TestWithParam<std::int16_t> {};

TEST_P(BrokerTopicDeletion, AFetchParkedOnATopicDeletedAndCreatedAgainReadsTheNewTopic) {
  const std::int16_t version = GetParam();
  asio::io_context io;
  Broker broker(BrokerConfig{}, kMachineBytes);
  ASSERT_EQ(broker.cluster().create_topic("doomed", 2), ErrorCode::kNone);
  const protocol::FetchRequest request = long_poll(*broker.cluster().find_topic("doomed"), version);
  std::optional<protocol::FetchResponse> answer;
  spawn_fetch(io, broker, request, version, answer);
  io.poll();
  ASSERT_FALSE(answer.has_value());

  ASSERT_TRUE(broker.delete_topic("doomed"));
  // A topic of the same name at once: the parked fetch must look it up again, not read the
  // deleted logs by a stale pointer.
  ASSERT_EQ(broker.cluster().create_topic("doomed", 2), ErrorCode::kNone);
  io.poll();
  if (version >= 13) {  // the old id names nothing now
    ASSERT_TRUE(answer.has_value());
    expect_every_partition(*answer, ErrorCode::kUnknownTopicId);
    return;
  }
  ASSERT_FALSE(answer.has_value());  // by name: waiting on the new topic's partitions
  ASSERT_EQ(broker.append_notifier().waiting(), 1u);
  protocol::RecordBatchBuilder builder;
  builder.add(protocol::ByteView::of("k"), protocol::ByteView::of("v"), 1000);
  const std::vector<std::uint8_t> batch = builder.build();
  StoredTopic& fresh = *broker.cluster().find_topic("doomed");
  ASSERT_EQ(broker.cluster().append(fresh, 1, batch, 0, 1000).value(), 0);
  broker.append_notifier().notify(fresh.partitions[1]);
  io.poll();
  ASSERT_TRUE(answer.has_value());
  ASSERT_EQ(answer->responses.size(), 1u);
  ASSERT_EQ(answer->responses[0].partitions.size(), 2u);
  EXPECT_EQ(answer->responses[0].partitions[1].error_code, ErrorCode::kNone);
  EXPECT_EQ(answer->responses[0].partitions[1].records.size(), 1u);
  EXPECT_EQ(answer->responses[0].partitions[1].high_watermark, 1);
}

TEST_P(BrokerTopicDeletion, AFetchParkedOnADeletedTopicAnswersUnknownOnceItWakes) {
  const std::int16_t version = GetParam();
  asio::io_context io;
  Broker broker(BrokerConfig{}, kMachineBytes);
  ASSERT_EQ(broker.cluster().create_topic("doomed", 2), ErrorCode::kNone);
  const protocol::FetchRequest request = long_poll(*broker.cluster().find_topic("doomed"), version);
  std::optional<protocol::FetchResponse> answer;
  spawn_fetch(io, broker, request, version, answer);
  io.poll();
  ASSERT_FALSE(answer.has_value());

  ASSERT_TRUE(broker.delete_topic("doomed"));
  io.poll();
  ASSERT_TRUE(answer.has_value());
  expect_every_partition(
      *answer, version >= 13 ? ErrorCode::kUnknownTopicId : ErrorCode::kUnknownTopicOrPartition);
}

INSTANTIATE_TEST_SUITE_P(ByNameAndById, BrokerTopicDeletion, ::testing::Values(12, 13));

TEST(BrokerTopicDeletionOffsets, EveryGroupLosesItsCommittedOffsetsOfTheDeletedTopicOnly) {
  Broker broker(BrokerConfig{}, kMachineBytes);
  ASSERT_EQ(broker.cluster().create_topic("doomed", 2), ErrorCode::kNone);
  ASSERT_EQ(broker.cluster().create_topic("kept", 1), ErrorCode::kNone);
  CoordinatorService& groups = broker.groups();
  for (const char* group : {"g1", "g2"}) {
    OffsetCommitParams commit;
    commit.group_id = group;
    commit.offsets = {{{"doomed", 0}, {5, ""}}, {{"doomed", 1}, {7, ""}}, {{"kept", 0}, {3, ""}}};
    ASSERT_EQ(groups.commit_offsets(commit).error, GroupError::kNone);
  }
  OffsetCommitParams only_doomed;
  only_doomed.group_id = "g3";
  only_doomed.offsets = {{{"doomed", 0}, {1, ""}}};
  ASSERT_EQ(groups.commit_offsets(only_doomed).error, GroupError::kNone);
  const std::size_t bytes_before = groups.classic().stored_bytes();

  ASSERT_TRUE(broker.delete_topic("doomed"));
  for (const char* group : {"g1", "g2"}) {
    const GroupOffsetFetchResult fetched =
        groups.fetch_offsets({.group_id = group, .partitions = std::nullopt});
    ASSERT_EQ(fetched.offsets.size(), 1u) << group;
    EXPECT_EQ(fetched.offsets[0].topic_partition.topic, "kept");
  }
  EXPECT_FALSE(groups.classic().has_group("g3"));  // nothing left: forgotten
  EXPECT_LT(groups.classic().stored_bytes(), bytes_before);
  EXPECT_EQ(groups.classic().stored_bytes(), groups.classic().recount_stored_bytes());
}

}  // namespace
}  // namespace kgroups::broker
