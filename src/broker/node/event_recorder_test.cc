// SPDX-License-Identifier: Apache-2.0
//
// The Broker's event log as the handlers' calls fill it: topic events from the Cluster (seeds,
// creation, auto-creation, deletion) and group events from both coordinators, with their
// exact JSON.
#include "broker/events/event_recorder.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "broker/coordinator/coordinator_test_harness.h"
#include "broker/node/broker.h"

namespace kgroups::broker {
namespace {

using Json = nlohmann::json;

constexpr std::int64_t kMachineBytes = std::int64_t{8} << 30;

// The events after `after_id`, parsed, each without its time (checked separately).
std::vector<Json> events_after(Broker& broker, std::uint64_t after_id) {
  std::vector<Json> events;
  for (const Event* event : broker.events().since(after_id)) {
    Json parsed = Json::parse(event->json);
    EXPECT_GT(parsed["time_ms"].get<std::int64_t>(), 1700000000000) << event->json;
    parsed.erase("time_ms");
    events.push_back(std::move(parsed));
  }
  return events;
}

TEST(EventRecorder, TopicsCreatedAndDeletedAreEvents) {
  BrokerConfig config;
  config.seed_topics = {{"seeded", 2}};
  Broker broker(config, kMachineBytes);
  ASSERT_EQ(broker.cluster().create_topic("orders", 3), protocol::ErrorCode::kNone);
  ASSERT_NE(broker.cluster().find_or_create_topic("auto"), nullptr);
  ASSERT_TRUE(broker.delete_topic("orders"));
  EXPECT_EQ(events_after(broker, 0),
            (std::vector<Json>{
                {{"id", 1}, {"type", "topic_created"}, {"topic", "seeded"}, {"partitions", 2}},
                {{"id", 2}, {"type", "topic_created"}, {"topic", "orders"}, {"partitions", 3}},
                {{"id", 3}, {"type", "topic_created"}, {"topic", "auto"}, {"partitions", 6}},
                {{"id", 4}, {"type", "topic_deleted"}, {"topic", "orders"}, {"partitions", 3}},
            }));
  // A refused creation is no event.
  EXPECT_NE(broker.cluster().create_topic("seeded", 1), protocol::ErrorCode::kNone);
  EXPECT_EQ(broker.events().last_id(), 4U);
}

TEST(EventRecorder, TheBrokersLogKeepsMaxEventsWithinMaxEventBytes) {
  BrokerConfig config;
  config.max_events = 2;
  config.max_event_bytes = 4096;
  config.seed_topics = {{"a", 1}, {"b", 1}, {"c", 1}};
  Broker broker(config, kMachineBytes);
  EXPECT_EQ(broker.events().limits().max_events, 2U);
  EXPECT_EQ(broker.events().limits().max_bytes, 4096U);
  ASSERT_EQ(broker.events().size(), 2U);
  EXPECT_EQ(broker.events().since(0).front()->id, 2U);
}

TEST(EventRecorder, AClassicGroupsRebalanceAndCommitAreEventsWithTheirPayloads) {
  BrokerConfig config;
  config.initial_rebalance_delay_ms = 0;
  Broker broker(config, kMachineBytes);
  // The internal topic, as a client's FindCoordinator creates it: its creation is an event.
  ASSERT_NE(broker.offsets_topic().ensure_created(), nullptr);
  const std::uint64_t before = broker.events().last_id();
  CoordinatorService& groups = broker.groups();

  JoinGroupResult joined;
  groups.join_group(CoordinatorHarness::join_params("g1"),
                    [&](JoinGroupResult result) { joined = std::move(result); });
  ASSERT_EQ(joined.error, GroupError::kNone);
  const std::string member = joined.member_id;
  SyncGroupParams sync;
  sync.group_id = "g1";
  sync.generation_id = joined.generation_id;
  sync.member_id = member;
  sync.assignments = {{member, consumer_assignment_bytes({{"orders", {0, 1}}, {"audit", {0}}})}};
  SyncGroupResult synced;
  groups.sync_group(std::move(sync), [&](SyncGroupResult result) { synced = std::move(result); });
  ASSERT_EQ(synced.error, GroupError::kNone);

  OffsetCommitParams commit;
  commit.group_id = "g1";
  commit.generation_id = 1;
  commit.member_id = member;
  commit.offsets.push_back({{"orders", 1}, {42, ""}});
  ASSERT_EQ(groups.commit_offsets(commit).error, GroupError::kNone);
  ASSERT_EQ(groups.leave_group("g1", leaving({member})).member_errors.at(0), GroupError::kNone);
  ASSERT_EQ(groups.delete_group("g1"), GroupError::kNone);

  const Json group = {{"group_id", "g1"}, {"group_type", "classic"}};
  auto with = [&group](Json fields) {
    Json merged = group;
    merged.update(fields);
    return merged;
  };
  const std::vector<Json> events = events_after(broker, before);
  const std::vector<Json> expected = {
      with({{"id", before + 1},
            {"type", "member_joined"},
            {"member_id", member},
            {"client_id", "client"},
            {"instance_id", nullptr}}),
      with({{"id", before + 2},
            {"type", "rebalance_started"},
            {"generation", 0},
            {"reason", "member " + member + " joined"}}),
      with({{"id", before + 3},
            {"type", "rebalance_completed"},
            {"generation", 1},
            {"protocol", "range"},
            {"leader", member},
            {"assignment",
             {{member,
               {{{"topic", "orders"}, {"partitions", {0, 1}}},
                {{"topic", "audit"}, {"partitions", {0}}}}}}}}),
      with({{"id", before + 4},
            {"type", "offsets_committed"},
            {"member_id", member},
            {"offsets", {{{"topic", "orders"}, {"partition", 1}, {"offset", 42}}}}}),
      with({{"id", before + 5},
            {"type", "member_left"},
            {"member_id", member},
            {"client_id", "client"},
            {"instance_id", nullptr},
            {"reason", "member " + member + " left the group"}}),
      with({{"id", before + 6},
            {"type", "rebalance_started"},
            {"generation", 1},
            {"reason", "member " + member + " left the group"}}),
      with({{"id", before + 7},
            {"type", "rebalance_completed"},
            {"generation", 2},
            {"protocol", nullptr},
            {"leader", nullptr},
            {"assignment", Json::object()}}),
      with({{"id", before + 8}, {"type", "group_deleted"}}),
  };
  ASSERT_EQ(events.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(events[i], expected[i]) << "event " << i + 1;
  }
  // The group's events carry its id for ?group= filtering.
  for (const Event* event : broker.events().since(before)) EXPECT_EQ(event->group_id, "g1");
}

TEST(EventRecorder, AConsumerGroupsTargetAssignmentIsARebalanceCompleted) {
  BrokerConfig config;
  config.seed_topics = {{"orders", 2}};
  Broker broker(config, kMachineBytes);
  ASSERT_NE(broker.offsets_topic().ensure_created(), nullptr);
  const std::uint64_t after_seed = broker.events().last_id();
  ConsumerGroupHeartbeatParams join;
  join.group_id = "cg";
  join.member_epoch = 0;
  join.rebalance_timeout_ms = 30000;
  join.subscribed_topic_names = std::vector<std::string>{"orders"};
  join.owned_topic_partitions = std::vector<TopicPartitions>{};
  join.client_id = "rdkafka";
  const ConsumerGroupHeartbeatResult joined = broker.groups().consumer_group_heartbeat(join);
  ASSERT_EQ(joined.error, GroupError::kNone);
  const std::string member = joined.member_id;

  const Json group = {{"group_id", "cg"}, {"group_type", "consumer"}};
  auto with = [&group](Json fields) {
    Json merged = group;
    merged.update(fields);
    return merged;
  };
  EXPECT_EQ(events_after(broker, after_seed),
            (std::vector<Json>{
                with({{"id", after_seed + 1},
                      {"type", "member_joined"},
                      {"member_id", member},
                      {"client_id", "rdkafka"},
                      {"instance_id", nullptr}}),
                with({{"id", after_seed + 2},
                      {"type", "rebalance_started"},
                      {"generation", 0},
                      {"reason", "member " + member + " joined"}}),
                with({{"id", after_seed + 3},
                      {"type", "rebalance_completed"},
                      {"generation", 1},
                      {"protocol", "uniform"},
                      {"leader", nullptr},
                      {"assignment", {{member, {{{"topic", "orders"}, {"partitions", {0, 1}}}}}}}}),
            }));
}

}  // namespace
}  // namespace kgroups::broker
