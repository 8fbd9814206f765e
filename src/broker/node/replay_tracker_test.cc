// SPDX-License-Identifier: Apache-2.0
//
// ReplayTracker: which deliveries are records delivered to a group again (records_replayed,
// with their exact range, generation and member), which are not (first deliveries, empty
// ones, a connection asking again, other groups' partitions and clients), and when marks are
// forgotten (group deleted or forgotten, topic deleted). Then the same through a Broker, whose
// coordinators tell the tracker their groups.
#include "broker/events/replay_tracker.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "broker/coordinator/coordinator_test_harness.h"
#include "broker/node/broker.h"
#include "broker/runtime/memory_charge_for_tests.h"

namespace kgroups::broker {
namespace {

using Json = nlohmann::json;

constexpr std::int64_t kMachineBytes = std::int64_t{8} << 30;

// The records_replayed events of `log`, parsed, without id and time.
std::vector<Json> replays(const EventLog& log) {
  std::vector<Json> out;
  for (const Event* event : log.since(0)) {
    if (event->type != "records_replayed") continue;
    Json parsed = Json::parse(event->json);
    parsed.erase("id");
    parsed.erase("time_ms");
    parsed.erase("type");
    out.push_back(std::move(parsed));
  }
  return out;
}

Json replay(std::string_view group_id, std::int32_t generation, Json member_id,
            std::string_view topic, std::int32_t partition, std::int64_t from, std::int64_t to) {
  return Json{{"group_id", group_id},
              {"group_type", "classic"},
              {"generation", generation},
              {"member_id", std::move(member_id)},
              {"topic", topic},
              {"partition", partition},
              {"from", from},
              {"to", to},
              {"count", to - from}};
}

// A tracker over its own event log, with helpers playing the coordinators' observations.
class ReplayTrackerTest : public ::testing::Test {
 protected:
  ReplayTrackerTest() { cluster_.create_topic("orders", 16); }

  void join(std::string_view group_id, std::string_view member_id, std::string_view client_id,
            std::string_view client_host = "/127.0.0.1") {
    ObservedMember member;
    member.member_id = member_id;
    member.client_id = client_id;
    member.client_host = client_host;
    tracker_.on_member_joined(GroupType::kClassic, group_id, member);
  }
  void leave(std::string_view group_id, std::string_view member_id) {
    ObservedMember member;
    member.member_id = member_id;
    tracker_.on_member_left(GroupType::kClassic, group_id, member, "left");
  }
  // A completed rebalance of `group_id` giving each member its partitions of "orders".
  void rebalance(std::string_view group_id, std::int32_t generation,
                 const std::vector<std::pair<std::string, std::vector<std::int32_t>>>& shares) {
    ObservedRebalance completed;
    completed.group_id = group_id;
    completed.generation = generation;
    for (const auto& [member_id, partitions] : shares) {
      completed.assignment.push_back(ObservedAssignment{
          .member_id = member_id,
          .partitions =
              std::vector<AssignedTopicPartitions>{AssignedTopicPartitions{"orders", partitions}}});
    }
    tracker_.on_rebalance_completed(completed);
  }
  void deliver(std::string_view client_id, std::string_view peer, std::int32_t partition,
               std::int64_t fetch_offset, std::int64_t end_offset) {
    tracker_.on_records_delivered(FetchingClient{.client_id = client_id, .peer = peer}, "orders",
                                  partition, fetch_offset, end_offset);
  }

  EventLog log_;
  Cluster cluster_{1, false};
  ReplayTracker tracker_{log_, cluster_};
};

TEST_F(ReplayTrackerTest, FirstDeliveriesAreNoReplay) {
  join("g", "m1", "c1");
  rebalance("g", 1, {{"m1", {0, 1}}});
  deliver("c1", "127.0.0.1:5000", 0, 0, 50);
  deliver("c1", "127.0.0.1:5000", 0, 50, 80);
  deliver("c1", "127.0.0.1:5000", 1, 0, 10);
  EXPECT_TRUE(replays(log_).empty());
  EXPECT_EQ(tracker_.mark_count(), 2U);
}

TEST_F(ReplayTrackerTest, ADeliveryBelowTheMarkIsAReplayOfExactlyTheRecordsSentBefore) {
  join("g", "m1", "c1");
  rebalance("g", 1, {{"m1", {0}}});
  deliver("c1", "127.0.0.1:5000", 0, 0, 50);  // m1 got [0, 50), then crashed at 30
  leave("g", "m1");
  join("g", "m2", "c2");
  rebalance("g", 3, {{"m2", {0}}});
  deliver("c2", "127.0.0.1:6000", 0, 30, 40);  // m2 starts at the committed 30
  deliver("c2", "127.0.0.1:6000", 0, 40, 60);  // crosses the mark: only [40, 50) again
  deliver("c2", "127.0.0.1:6000", 0, 60, 70);  // new records
  EXPECT_EQ(replays(log_), (std::vector<Json>{replay("g", 3, "m2", "orders", 0, 30, 40),
                                              replay("g", 3, "m2", "orders", 0, 40, 50)}));
  // A batch starting before the fetch offset: the replay starts at the fetch offset.
  deliver("c2", "127.0.0.1:7000", 0, 65, 70);
  EXPECT_EQ(replays(log_).back(), replay("g", 3, "m2", "orders", 0, 65, 70));
}

TEST_F(ReplayTrackerTest, AssignedPartitionsThatDoNotExistAreNotTracked) {
  join("g", "m1", "c1");
  ObservedRebalance completed;
  completed.type = GroupType::kClassic;
  completed.group_id = "g";
  completed.generation = 1;
  std::vector<std::int32_t> many(50000);
  for (std::size_t i = 0; i < many.size(); ++i) many[i] = static_cast<std::int32_t>(i);
  completed.assignment.push_back({.member_id = "m1",
                                  .partitions = std::vector<AssignedTopicPartitions>{
                                      {std::string(2000, 't'), many},  // no such topic
                                      {"orders", many}}});             // 16 of these exist
  tracker_.on_rebalance_completed(completed);
  EXPECT_EQ(tracker_.mark_count(), 16U);
}

TEST_F(ReplayTrackerTest, EmptyDeliveriesChangeNothing) {
  join("g", "m1", "c1");
  rebalance("g", 1, {{"m1", {0}}});
  deliver("c1", "127.0.0.1:5000", 0, 10, 10);
  deliver("c1", "127.0.0.1:5000", 0, 10, 5);
  deliver("c1", "127.0.0.1:6000", 0, 0, 10);  // still a first delivery
  EXPECT_TRUE(replays(log_).empty());
}

TEST_F(ReplayTrackerTest, TheSameConnectionAskingAgainForItsLastFetchOffsetIsNoReplay) {
  join("g", "m1", "c1");
  rebalance("g", 1, {{"m1", {0}}});
  deliver("c1", "127.0.0.1:5000", 0, 0, 50);
  deliver("c1", "127.0.0.1:5000", 0, 0, 50);  // it dropped the answer and asks again
  EXPECT_TRUE(replays(log_).empty());
  deliver("c1", "127.0.0.1:5000", 0, 20, 50);  // a seek back on the same connection
  deliver("c1", "127.0.0.1:5001", 0, 20, 50);  // a new connection from the same offset
  EXPECT_EQ(replays(log_), (std::vector<Json>{replay("g", 1, "m1", "orders", 0, 20, 50),
                                              replay("g", 1, "m1", "orders", 0, 20, 50)}));
}

TEST_F(ReplayTrackerTest, OtherGroupsPartitionsAndClientsAreNotAttributed) {
  join("g1", "a", "c1");
  rebalance("g1", 1, {{"a", {0}}});
  join("g2", "b", "c2");
  rebalance("g2", 1, {{"b", {1}}});
  for (int round = 0; round < 2; ++round) {
    deliver("c1", "127.0.0.1:5000", 1, 0, 50);  // g2's partition, g1's client
    deliver("c2", "127.0.0.1:5001", 0, 0, 50);  // g1's partition, g2's client
    deliver("c3", "127.0.0.1:5002", 0, 0, 50);  // a client in no group
    deliver("c1", "127.0.0.1:5003", 2, 0, 50);  // a partition nobody is assigned
  }
  deliver("c1", "10.0.0.9:5004", 0, 0, 50);  // g1's client id from another host
  deliver("c1", "10.0.0.9:5005", 0, 0, 50);
  EXPECT_TRUE(replays(log_).empty());
  EXPECT_EQ(tracker_.mark_count(), 2U);
}

TEST_F(ReplayTrackerTest, TwoGroupsOfOneClientIdOnOnePartitionEachCountEveryDelivery) {
  join("g1", "a", "app");
  rebalance("g1", 1, {{"a", {0}}});
  join("g2", "b", "app");
  rebalance("g2", 4, {{"b", {0}}});
  deliver("app", "127.0.0.1:5000", 0, 0, 50);  // g1's member
  deliver("app", "127.0.0.1:5001", 0, 0, 50);  // g2's member: both groups see both
  EXPECT_EQ(replays(log_), (std::vector<Json>{replay("g1", 1, "a", "orders", 0, 0, 50),
                                              replay("g2", 4, "b", "orders", 0, 0, 50)}));
}

TEST_F(ReplayTrackerTest, TheMemberIsTheOwnerElseTheOnlyMatchElseNull) {
  join("g", "owner", "app");
  join("g", "other", "app");
  join("g", "third", "tool");
  rebalance("g", 2, {{"owner", {0}}, {"other", {1}}, {"third", {2}}});
  deliver("app", "127.0.0.1:5000", 0, 0, 10);
  deliver("app", "127.0.0.1:5001", 0, 0, 10);  // the owner matches
  deliver("tool", "127.0.0.1:5002", 1, 0, 10);
  deliver("tool", "127.0.0.1:5003", 1, 0, 10);  // not the owner, but the only "tool"
  deliver("app", "127.0.0.1:5004", 2, 0, 10);
  deliver("app", "127.0.0.1:5005", 2, 0, 10);  // two "app" members, neither the owner
  EXPECT_EQ(replays(log_), (std::vector<Json>{replay("g", 2, "owner", "orders", 0, 0, 10),
                                              replay("g", 2, "third", "orders", 1, 0, 10),
                                              replay("g", 2, nullptr, "orders", 2, 0, 10)}));
}

TEST_F(ReplayTrackerTest, MarksOutliveAnEmptyGenerationButNotTheGroup) {
  join("g", "m1", "c1");
  rebalance("g", 1, {{"m1", {0}}});
  deliver("c1", "127.0.0.1:5000", 0, 0, 50);
  leave("g", "m1");
  rebalance("g", 2, {});  // no members: nothing assigned, the mark stays
  EXPECT_EQ(tracker_.assigned_partition_count(), 0U);
  EXPECT_EQ(tracker_.mark_count(), 1U);
  deliver("c1", "127.0.0.1:5001", 0, 0, 50);  // unassigned: not attributed
  EXPECT_TRUE(replays(log_).empty());

  tracker_.on_group_deleted(GroupType::kClassic, "g");
  EXPECT_EQ(tracker_.mark_count(), 0U);
  join("g", "m2", "c1");
  rebalance("g", 1, {{"m2", {0}}});
  deliver("c1", "127.0.0.1:5002", 0, 0, 50);  // a new group of the same id: first delivery
  EXPECT_TRUE(replays(log_).empty());

  tracker_.on_group_forgotten(GroupType::kClassic, "g");
  EXPECT_EQ(tracker_.mark_count(), 0U);
  EXPECT_EQ(tracker_.assigned_partition_count(), 0U);
}

TEST_F(ReplayTrackerTest, ADeletedTopicsMarksAreForgotten) {
  join("g", "m1", "c1");
  rebalance("g", 1, {{"m1", {0, 1}}});
  deliver("c1", "127.0.0.1:5000", 0, 0, 50);
  tracker_.forget_topic("orders");
  EXPECT_EQ(tracker_.mark_count(), 0U);
  EXPECT_EQ(tracker_.assigned_partition_count(), 0U);
  rebalance("g", 2, {{"m1", {0}}});  // the topic created again
  deliver("c1", "127.0.0.1:5001", 0, 0, 50);
  EXPECT_TRUE(replays(log_).empty());
}

TEST_F(ReplayTrackerTest, MarksAndAssignmentEntriesAreChargedAndGivenBackAsTheyGo) {
  std::size_t held = 0;
  // Room for 10 partitions of "orders": a mark and an assignment entry each.
  const std::size_t room =
      10 * (ReplayTracker::mark_bytes("orders") + ReplayTracker::claim_bytes("orders"));
  tracker_.set_memory_charge(testing::charge_within(held, room));
  join("g", "m1", "c1");
  rebalance("g", 1, {{"m1", {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}}});
  EXPECT_EQ(tracker_.mark_count(), 10U);
  EXPECT_EQ(tracker_.assigned_partition_count(), 10U);
  EXPECT_EQ(tracker_.untracked(), 6U);
  EXPECT_EQ(held, room);
  EXPECT_EQ(tracker_.held_bytes(), held);
  // An untracked partition publishes nothing; a tracked one still does.
  deliver("c1", "127.0.0.1:5000", 15, 0, 50);
  deliver("c1", "127.0.0.1:5001", 15, 0, 50);
  deliver("c1", "127.0.0.1:5000", 0, 0, 50);
  deliver("c1", "127.0.0.1:5001", 0, 0, 50);
  EXPECT_EQ(replays(log_), (std::vector<Json>{replay("g", 1, "m1", "orders", 0, 0, 50)}));
  // A smaller assignment gives its entries back; the marks stay until the group goes.
  rebalance("g", 2, {{"m1", {0}}});
  EXPECT_EQ(held, 10 * ReplayTracker::mark_bytes("orders") + ReplayTracker::claim_bytes("orders"));
  tracker_.forget_topic("orders");
  EXPECT_EQ(held, 0U);
  rebalance("g", 3, {{"m1", {0, 1}}});
  EXPECT_GT(held, 0U);
  tracker_.on_group_deleted(GroupType::kClassic, "g");
  EXPECT_EQ(held, 0U);
  EXPECT_EQ(tracker_.held_bytes(), 0U);
}

TEST_F(ReplayTrackerTest, AMarkCostsTheSameWhateverTheLengthOfItsOwnersId) {
  const std::string long_id(30000, 'm');
  join("g", long_id, "c1");
  rebalance("g", 1, {{long_id, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}}});
  EXPECT_EQ(tracker_.held_bytes(),
            16 * (ReplayTracker::mark_bytes("orders") + ReplayTracker::claim_bytes("orders")));
  deliver("c1", "127.0.0.1:5000", 3, 0, 50);
  deliver("c1", "127.0.0.1:5001", 3, 0, 50);
  EXPECT_EQ(replays(log_), (std::vector<Json>{replay("g", 1, long_id, "orders", 3, 0, 50)}));
}

// Joins one member to `group` and, as its leader, syncs it with `partitions`; the join's
// result (its error is the sync's when the join succeeded but the sync did not).
JoinGroupResult join_sole_member(
    CoordinatorService& groups, const std::string& group,
    const std::vector<std::pair<std::string, std::vector<int>>>& partitions) {
  JoinGroupResult joined;
  groups.join_group(CoordinatorHarness::join_params(group),
                    [&](JoinGroupResult result) { joined = std::move(result); });
  if (joined.error != GroupError::kNone) return joined;
  SyncGroupParams sync;
  sync.group_id = group;
  sync.generation_id = joined.generation_id;
  sync.member_id = joined.member_id;
  sync.assignments = {{joined.member_id, consumer_assignment_bytes(partitions)}};
  groups.sync_group(std::move(sync),
                    [&](const SyncGroupResult& result) { joined.error = result.error; });
  return joined;
}

// Through a Broker: its coordinator tells the tracker the group's members (with their client
// id and host) and assignment, and a deletion.
TEST(ReplayTrackerInBroker, AClassicGroupsReplayIsAnEventUntilTheGroupIsDeleted) {
  BrokerConfig config;
  config.initial_rebalance_delay_ms = 0;
  config.seed_topics = {{"orders", 2}};
  Broker broker(config, kMachineBytes);
  CoordinatorService& groups = broker.groups();
  const JoinGroupResult joined = join_sole_member(groups, "g1", {{"orders", {0, 1}}});
  ASSERT_EQ(joined.error, GroupError::kNone);

  const FetchingClient client{.client_id = "client", .peer = "127.0.0.1:40000"};
  const FetchingClient restarted{.client_id = "client", .peer = "127.0.0.1:40001"};
  broker.replays().on_records_delivered(client, "orders", 1, 0, 100);
  broker.replays().on_records_delivered(restarted, "orders", 1, 30, 100);
  std::vector<Json> published = replays(broker.events());
  ASSERT_EQ(published.size(), 1U);
  EXPECT_EQ(published[0],
            replay("g1", joined.generation_id, joined.member_id, "orders", 1, 30, 100));

  // With a committed offset the group outlives its last member, and so do its marks.
  OffsetCommitParams commit;
  commit.group_id = "g1";
  commit.generation_id = joined.generation_id;
  commit.member_id = joined.member_id;
  commit.offsets.push_back({{"orders", 1}, {30, ""}});
  ASSERT_EQ(groups.commit_offsets(commit).error, GroupError::kNone);
  ASSERT_EQ(groups.leave_group("g1", leaving({joined.member_id})).member_errors.at(0),
            GroupError::kNone);
  EXPECT_EQ(broker.replays().mark_count(), 2U);
  ASSERT_EQ(groups.delete_group("g1"), GroupError::kNone);
  EXPECT_EQ(broker.replays().mark_count(), 0U);
}

TEST(ReplayTrackerInBroker, AGroupForgottenWithoutOffsetsTakesItsMarks) {
  BrokerConfig config;
  config.initial_rebalance_delay_ms = 0;
  config.seed_topics = {{"orders", 1}};
  Broker broker(config, kMachineBytes);
  CoordinatorService& groups = broker.groups();
  const JoinGroupResult joined = join_sole_member(groups, "g1", {{"orders", {0}}});
  ASSERT_EQ(joined.error, GroupError::kNone);
  EXPECT_EQ(broker.replays().assigned_partition_count(), 1U);
  ASSERT_EQ(groups.leave_group("g1", leaving({joined.member_id})).member_errors.at(0),
            GroupError::kNone);
  EXPECT_EQ(broker.replays().mark_count(), 0U);
  EXPECT_EQ(broker.replays().assigned_partition_count(), 0U);
}

TEST(ReplayTrackerInBroker, MarksAreChargedToTheGroupsShare) {
  BrokerConfig config;
  config.initial_rebalance_delay_ms = 0;
  config.seed_topics = {{"orders", 2}};
  Broker broker(config, kMachineBytes);
  CoordinatorService& groups = broker.groups();
  const std::size_t before = groups.held_bytes();
  const JoinGroupResult joined = join_sole_member(groups, "g1", {{"orders", {0, 1}}});
  ASSERT_EQ(joined.error, GroupError::kNone);
  EXPECT_EQ(groups.held_bytes() - before, broker.replays().held_bytes());
  EXPECT_GT(broker.replays().held_bytes(), 0U);
  ASSERT_EQ(groups.leave_group("g1", leaving({joined.member_id})).member_errors.at(0),
            GroupError::kNone);
  EXPECT_EQ(groups.held_bytes(), before);
}

}  // namespace
}  // namespace kgroups::broker
