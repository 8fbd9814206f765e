// SPDX-License-Identifier: Apache-2.0
//
// A group's coordinator with --brokers 3: the leader of its __consumer_offsets partition. When
// that broker stops, the partition's new leader coordinates, after loading the partition
// (COORDINATOR_LOAD_IN_PROGRESS until the load ran); an unclean election that truncates the
// partition takes the truncated commits away, as Kafka's reload from the log does.
#include <gtest/gtest.h>

#include <asio/io_context.hpp>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "broker/groups/coordinator_topic.h"
#include "broker/groups/offsets_partition.h"
#include "broker/node/broker.h"
#include "broker/node/three_broker_config_for_tests.h"

namespace kgroups::broker {
namespace {

using protocol::ErrorCode;

void commit(Broker& broker, const std::string& group, std::int64_t offset) {
  OffsetCommitParams params;
  params.group_id = group;
  params.offsets = {{{"orders", 0}, {offset, ""}}};
  ASSERT_EQ(broker.groups().commit_offsets(params).error, GroupError::kNone);
}

std::int64_t committed(Broker& broker, const std::string& group) {
  const GroupOffsetFetchResult fetched =
      broker.groups().fetch_offsets({.group_id = group, .partitions = std::nullopt});
  return fetched.offsets.empty() ? -1 : fetched.offsets.front().committed.offset;
}

BatchLog& offsets_partition_of(Broker& broker, const std::string& group) {
  StoredTopic& topic = *broker.cluster().find_topic(kOffsetsTopicName);
  return topic.partitions[static_cast<std::size_t>(
      offsets_partition_for(group, static_cast<std::int32_t>(topic.partitions.size())))];
}

TEST(BrokerCoordinatorMove, TheCoordinatorMovesWithItsPartitionAndLoadsItBeforeServing) {
  Broker broker(testing::three_broker_config(), testing::kTestMachineBytes);
  ASSERT_EQ(broker.cluster().create_topic("orders", 1), ErrorCode::kNone);
  ASSERT_NE(broker.offsets_topic().ensure_created(), nullptr);
  commit(broker, "billing", 42);
  const std::int32_t first = broker.coordinator_for("billing");
  EXPECT_EQ(first, offsets_partition_of(broker, "billing").replicas().leader());
  EXPECT_EQ(offsets_partition_of(broker, "billing").replicas().replicas().size(), 3u);

  asio::io_context io;
  broker.start(io.get_executor());
  ASSERT_EQ(broker.replication().stop(first), ErrorCode::kNone);
  const std::int32_t second = broker.coordinator_for("billing");
  EXPECT_NE(second, first);
  EXPECT_NE(second, -1);
  EXPECT_TRUE(broker.coordinator_loading("billing"));
  bool moved = false;
  for (const Event* event : broker.events().since(0))
    moved = moved || event->type == "coordinator_moved";
  EXPECT_TRUE(moved);
  io.poll();  // the load runs on the broker's next turn
  EXPECT_FALSE(broker.coordinator_loading("billing"));
  EXPECT_EQ(committed(broker, "billing"), 42);
  io.stop();
}

TEST(BrokerCoordinatorMove, CommitsAnUncleanElectionTruncatesAreGoneAfterTheLoad) {
  BrokerConfig config = testing::three_broker_config();
  config.unclean_leader_election = true;
  Broker broker(config, testing::kTestMachineBytes);
  ASSERT_EQ(broker.cluster().create_topic("orders", 1), ErrorCode::kNone);
  ASSERT_NE(broker.offsets_topic().ensure_created(), nullptr);
  commit(broker, "billing", 10);  // on every replica
  BatchLog& log = offsets_partition_of(broker, "billing");
  const std::int32_t leader = log.replicas().leader();
  ReplicationController& replication = broker.replication();
  // The followers stop, leaving the ISR, and the leader alone gets the next commit (the
  // coordinator's write waits for the ISR, which is the leader alone now).
  for (std::int32_t node = 0; node < 3; ++node) {
    if (node != leader) {
      ASSERT_EQ(replication.stop(node), ErrorCode::kNone);
    }
  }
  commit(broker, "billing", 20);
  EXPECT_EQ(committed(broker, "billing"), 20);
  // Then the leader stops: an out-of-sync replica must lead.
  ASSERT_EQ(replication.stop(leader), ErrorCode::kNone);
  std::int32_t survivor = (leader + 1) % 3;
  ASSERT_EQ(replication.set_replication_delay(survivor, 1'000'000'000), ErrorCode::kNone);
  ASSERT_EQ(replication.start(survivor), ErrorCode::kNone);  // unclean: it lacks the commit
  EXPECT_EQ(log.replicas().leader(), survivor);
  EXPECT_EQ(committed(broker, "billing"), 10);  // read back from what the log kept
}

TEST(BrokerCoordinatorMove, ACommitReachesTheInSyncFollowersDespiteAReplicationDelay) {
  // Kafka's coordinator answers a commit once the ISR has it, so a clean election keeps it.
  Broker broker(testing::three_broker_config(), testing::kTestMachineBytes);
  ASSERT_EQ(broker.cluster().create_topic("orders", 1), ErrorCode::kNone);
  ASSERT_NE(broker.offsets_topic().ensure_created(), nullptr);
  const std::int32_t leader = offsets_partition_of(broker, "billing").replicas().leader();
  for (std::int32_t node = 0; node < 3; ++node) {
    if (node != leader) {
      ASSERT_EQ(broker.replication().set_replication_delay(node, 1'000'000'000), ErrorCode::kNone);
    }
  }
  commit(broker, "billing", 42);
  asio::io_context io;
  broker.start(io.get_executor());
  ASSERT_EQ(broker.replication().stop(leader), ErrorCode::kNone);
  io.poll();
  EXPECT_NE(broker.coordinator_for("billing"), leader);
  EXPECT_EQ(committed(broker, "billing"), 42);
  io.stop();
}

// JoinGroup of `member_id` ("" for a new member) to "billing"; the result once the join
// phase ends (the callback runs before the call returns when it does).
JoinGroupResult join(Broker& broker, const std::string& member_id,
                     std::optional<JoinGroupResult>* parked = nullptr) {
  JoinGroupParams params;
  params.group_id = "billing";
  params.member_id = member_id;
  params.client_id = "client";
  params.session_timeout_ms = 10000;
  params.rebalance_timeout_ms = 10000;
  params.protocol_type = "consumer";
  params.protocols = {GroupProtocol{"range", {1}}};
  auto result = std::make_shared<std::optional<JoinGroupResult>>();
  broker.groups().join_group(params, [result, parked](const JoinGroupResult& joined) {
    *result = joined;
    if (parked != nullptr) *parked = joined;
  });
  if (result->has_value()) return **result;
  JoinGroupResult waiting;  // still parked
  waiting.error = GroupError::kRebalanceInProgress;
  return waiting;
}

GroupError sync(Broker& broker, const JoinGroupResult& joined,
                std::vector<MemberAssignment> assignments = {}) {
  SyncGroupParams params;
  params.group_id = "billing";
  params.generation_id = joined.generation_id;
  params.member_id = joined.member_id;
  params.assignments = std::move(assignments);
  GroupError synced = GroupError::kUnknownMemberId;
  broker.groups().sync_group(params, [&](const SyncGroupResult& result) { synced = result.error; });
  return synced;
}

TEST(BrokerCoordinatorMove, AGenerationAnUncleanElectionTruncatesIsGoneAfterTheLoad) {
  BrokerConfig config = testing::three_broker_config();
  config.unclean_leader_election = true;
  config.initial_rebalance_delay_ms = 0;
  Broker broker(config, testing::kTestMachineBytes);
  ASSERT_EQ(broker.cluster().create_topic("orders", 1), ErrorCode::kNone);
  ASSERT_NE(broker.offsets_topic().ensure_created(), nullptr);
  const JoinGroupResult first = join(broker, "");  // generation 1, on every replica
  ASSERT_EQ(first.error, GroupError::kNone);
  ASSERT_EQ(sync(broker, first, {MemberAssignment{first.member_id, {1}}}), GroupError::kNone);
  BatchLog& log = offsets_partition_of(broker, "billing");
  const std::int32_t leader = log.replicas().leader();
  ReplicationController& replication = broker.replication();
  for (std::int32_t node = 0; node < 3; ++node) {
    if (node != leader) {
      ASSERT_EQ(replication.stop(node), ErrorCode::kNone);
    }
  }
  // Generation 2 with a second member, logged by the leader alone.
  std::optional<JoinGroupResult> second;
  (void)join(broker, "", &second);
  const JoinGroupResult rejoined = join(broker, first.member_id);
  ASSERT_TRUE(second.has_value());
  ASSERT_EQ(rejoined.error, GroupError::kNone);
  ASSERT_EQ(rejoined.generation_id, first.generation_id + 1);
  ASSERT_EQ(
      sync(broker, rejoined,
           {MemberAssignment{first.member_id, {1}}, MemberAssignment{second->member_id, {2}}}),
      GroupError::kNone);
  ASSERT_EQ(sync(broker, *second), GroupError::kNone);

  asio::io_context io;
  broker.start(io.get_executor());
  ASSERT_EQ(replication.stop(leader), ErrorCode::kNone);
  const std::int32_t survivor = (leader + 1) % 3;
  ASSERT_EQ(replication.start(survivor), ErrorCode::kNone);  // unclean: it lacks generation 2
  io.poll();
  ASSERT_EQ(log.replicas().leader(), survivor);
  const ClassicGroup* group = broker.groups().classic().group("billing");
  ASSERT_NE(group, nullptr);
  EXPECT_EQ(group->generation_id(), first.generation_id);
  EXPECT_EQ(group->members().size(), 1u);
  EXPECT_EQ(
      broker.groups().heartbeat("billing", rejoined.generation_id, first.member_id, std::nullopt),
      GroupError::kIllegalGeneration);  // it must rejoin, as against Kafka
  EXPECT_EQ(
      broker.groups().heartbeat("billing", second->generation_id, second->member_id, std::nullopt),
      GroupError::kUnknownMemberId);
  io.stop();
}

TEST(BrokerCoordinatorMove, AClassicGroupWithMembersComesBackFromTheLogInItsGeneration) {
  BrokerConfig config = testing::three_broker_config();
  config.initial_rebalance_delay_ms = 0;
  Broker broker(config, testing::kTestMachineBytes);
  ASSERT_EQ(broker.cluster().create_topic("orders", 1), ErrorCode::kNone);
  ASSERT_NE(broker.offsets_topic().ensure_created(), nullptr);
  JoinGroupParams join;
  join.group_id = "billing";
  join.client_id = "client";
  join.session_timeout_ms = 10000;
  join.rebalance_timeout_ms = 10000;
  join.protocol_type = "consumer";
  join.protocols = {GroupProtocol{"range", {1}}};
  JoinGroupResult joined;
  broker.groups().join_group(join, [&](const JoinGroupResult& result) { joined = result; });
  ASSERT_EQ(joined.error, GroupError::kNone);
  SyncGroupParams sync;
  sync.group_id = "billing";
  sync.generation_id = joined.generation_id;
  sync.member_id = joined.member_id;
  sync.assignments = {MemberAssignment{joined.member_id, {7}}};
  GroupError synced = GroupError::kUnknownMemberId;
  broker.groups().sync_group(sync, [&](const SyncGroupResult& result) { synced = result.error; });
  ASSERT_EQ(synced, GroupError::kNone);

  asio::io_context io;
  broker.start(io.get_executor());
  ASSERT_EQ(broker.replication().stop(broker.coordinator_for("billing")), ErrorCode::kNone);
  io.poll();
  const ClassicGroup* group = broker.groups().classic().group("billing");
  ASSERT_NE(group, nullptr);
  EXPECT_EQ(group->state(), ClassicGroupState::kStable);
  EXPECT_EQ(group->generation_id(), joined.generation_id);
  ASSERT_NE(group->find_member(joined.member_id), nullptr);
  EXPECT_EQ(group->find_member(joined.member_id)->assignment, (std::vector<std::uint8_t>{7}));
  EXPECT_EQ(
      broker.groups().heartbeat("billing", joined.generation_id, joined.member_id, std::nullopt),
      GroupError::kNone);
  io.stop();
}

}  // namespace
}  // namespace kgroups::broker
