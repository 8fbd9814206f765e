// SPDX-License-Identifier: Apache-2.0
#include "broker/groups/coordinator_service.h"

#include <gtest/gtest.h>

#include <asio/io_context.hpp>
#include <chrono>

#include "broker/coordinator/in_memory_topic_catalog.h"

namespace kgroups::broker {
namespace {

using std::chrono::milliseconds;

JoinGroupParams classic_join(std::string group_id) {
  JoinGroupParams params;
  params.group_id = std::move(group_id);
  params.client_id = "client";
  params.session_timeout_ms = 30;
  params.rebalance_timeout_ms = 30;
  params.protocol_type = "consumer";
  params.protocols = {GroupProtocol{"range", {}}};
  return params;
}

ConsumerGroupHeartbeatParams consumer_join(std::string group_id) {
  ConsumerGroupHeartbeatParams params;
  params.group_id = std::move(group_id);
  params.member_epoch = kJoinMemberEpoch;
  params.rebalance_timeout_ms = 30000;
  params.subscribed_topic_names = std::vector<std::string>{"orders"};
  params.owned_topic_partitions = std::vector<TopicPartitions>{};
  params.client_id = "client";
  params.client_host = "/127.0.0.1";
  return params;
}

class CoordinatorServiceTest : public ::testing::Test {
 protected:
  CoordinatorServiceTest() : service_(classic_config(), ConsumerGroupConfig{}, catalog_) {
    catalog_.create_topic("orders", 6);
  }
  static CoordinatorConfig classic_config() {
    CoordinatorConfig config;
    config.min_session_timeout_ms = 1;
    return config;
  }
  InMemoryTopicCatalog catalog_;
  CoordinatorService service_;
};

TEST_F(CoordinatorServiceTest, TimerExpiresAMemberWhenNoRequestArrives) {
  asio::io_context io;
  service_.start(io.get_executor());
  io.poll();  // the expiry timer starts with nothing to wait for

  GroupError joined = GroupError::kUnknownMemberId;
  service_.join_group(classic_join("g"),
                      [&](const JoinGroupResult& result) { joined = result.error; });
  ASSERT_EQ(joined, GroupError::kNone);  // the service re-armed its timer itself
  EXPECT_EQ(service_.describe_group("g").state, "CompletingRebalance");

  io.run_for(milliseconds(300));
  // The member neither synced nor heartbeated: removed, and the group without offsets dropped.
  EXPECT_EQ(service_.describe_group("g").state, "Dead");
}

TEST_F(CoordinatorServiceTest, AGroupIdBelongsToOneProtocolAtATime) {
  GroupError joined = GroupError::kNone;
  service_.join_group(classic_join("classic"),
                      [&](const JoinGroupResult& result) { joined = result.error; });
  ASSERT_EQ(joined, GroupError::kNone);
  const ConsumerGroupHeartbeatResult refused =
      service_.consumer_group_heartbeat(consumer_join("classic"));
  EXPECT_EQ(refused.error, GroupError::kGroupIdNotFound);
  EXPECT_NE(refused.error_message.find("not a consumer group"), std::string::npos);

  const ConsumerGroupHeartbeatResult member =
      service_.consumer_group_heartbeat(consumer_join("modern"));
  ASSERT_EQ(member.error, GroupError::kNone);
  service_.join_group(classic_join("modern"),
                      [&](const JoinGroupResult& result) { joined = result.error; });
  EXPECT_EQ(joined, GroupError::kInconsistentGroupProtocol);
  EXPECT_EQ(service_.heartbeat("modern", 1, member.member_id, std::nullopt),
            GroupError::kUnknownMemberId);

  const auto listings = service_.list_groups();
  ASSERT_EQ(listings.size(), 2u);
  EXPECT_EQ(listings[0].group.group_id, "classic");
  EXPECT_EQ(listings[0].type, "classic");
  EXPECT_EQ(listings[1].group.group_id, "modern");
  EXPECT_EQ(listings[1].type, "consumer");
}

TEST_F(CoordinatorServiceTest, AnEmptyClassicGroupMovesToTheConsumerProtocolWithItsOffsets) {
  OffsetCommitParams commit;
  commit.group_id = "g";
  commit.offsets = {PartitionOffset{{"orders", 2}, {41, "meta"}}};
  ASSERT_EQ(service_.commit_offsets(commit).error, GroupError::kNone);
  ASSERT_TRUE(service_.classic().has_group("g"));

  const ConsumerGroupHeartbeatResult member = service_.consumer_group_heartbeat(consumer_join("g"));
  ASSERT_EQ(member.error, GroupError::kNone);
  EXPECT_FALSE(service_.classic().has_group("g"));
  const GroupOffsetFetchResult fetched =
      service_.fetch_offsets({.group_id = "g", .partitions = std::nullopt});
  ASSERT_EQ(fetched.error, GroupError::kNone);
  ASSERT_EQ(fetched.offsets.size(), 1u);
  EXPECT_EQ(fetched.offsets[0].committed.offset, 41);
}

TEST_F(CoordinatorServiceTest, ConsumerGroupCommitsAreFencedByMemberEpoch) {
  const ConsumerGroupHeartbeatResult member = service_.consumer_group_heartbeat(consumer_join("g"));
  ASSERT_EQ(member.error, GroupError::kNone);
  OffsetCommitParams commit;
  commit.group_id = "g";
  commit.member_id = member.member_id;
  commit.generation_id = member.member_epoch + 5;
  commit.offsets = {PartitionOffset{{"orders", 0}, {1, ""}}};
  EXPECT_EQ(service_.commit_offsets(commit).error, GroupError::kStaleMemberEpoch);
  commit.generation_id = member.member_epoch;
  EXPECT_EQ(service_.commit_offsets(commit).error, GroupError::kNone);
}

}  // namespace
}  // namespace kgroups::broker

namespace kgroups::broker {
namespace {

// The groups' memory is one budget: what classic groups keep is not there for consumer
// groups, and the other way round.
TEST(CoordinatorServiceMemory, BothProtocolsShareOneGroupsBudget) {
  InMemoryTopicCatalog catalog;
  catalog.create_topic("orders", 6);
  CoordinatorConfig config;
  config.min_session_timeout_ms = 1;
  config.max_stored_bytes = std::size_t{256} * 1024;
  config.max_group_metadata_bytes = std::size_t{1024} * 1024;
  CoordinatorService service(config, ConsumerGroupConfig{}, catalog);

  ConsumerGroupHeartbeatParams consumer = consumer_join("consumer-group");
  consumer.subscribed_topic_names->resize(120);
  for (std::size_t i = 0; i < 120; ++i) {
    (*consumer.subscribed_topic_names)[i] = std::to_string(i) + std::string(900, 't');
  }
  // Alone, the consumer member fits the budget (about 230 KB of names and overheads)...
  {
    CoordinatorService alone(config, ConsumerGroupConfig{}, catalog);
    EXPECT_EQ(alone.consumer_group_heartbeat(consumer).error, GroupError::kNone);
  }
  // ...but not once a classic member keeps 100 KB of protocol metadata.
  JoinGroupParams classic = classic_join("classic-group");
  classic.protocols = {
      GroupProtocol{"range", std::vector<std::uint8_t>(std::size_t{100} * 1024, 1)}};
  GroupError joined = GroupError::kUnknownMemberId;
  service.join_group(std::move(classic),
                     [&](const JoinGroupResult& result) { joined = result.error; });
  ASSERT_EQ(joined, GroupError::kNone);
  ASSERT_GT(service.classic().stored_bytes(), 100u * 1024);
  const ConsumerGroupHeartbeatResult refused = service.consumer_group_heartbeat(consumer);
  EXPECT_EQ(refused.error, GroupError::kCoordinatorLoadInProgress);
  EXPECT_EQ(service.consumer().stored_bytes(), 0u);
}

}  // namespace
}  // namespace kgroups::broker
