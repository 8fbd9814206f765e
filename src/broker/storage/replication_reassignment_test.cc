// SPDX-License-Identifier: Apache-2.0
//
// Reassignments (AlterPartitionReassignments) through the ReplicationController: the plan,
// the added replicas catching up at tick(), completion, cancellation, refusals, and KIP-860's
// refusal of a new replication factor.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "broker/storage/partition_reassignment.h"
#include "broker/storage/replication_controller.h"
#include "protocol/record_batch.h"
#include "protocol/record_batch_builder.h"

namespace kgroups::broker {
namespace {

using protocol::ErrorCode;
using Nodes = std::vector<std::int32_t>;

// Three brokers on a manual clock with topic "t" of one partition on brokers 0 and 1.
struct Reassignment : ::testing::Test {
  Reassignment() {
    cluster.set_replication(&controller);
    EXPECT_EQ(cluster.create_topic("t", 1, std::nullopt, {.assignment = {{0, 1}}}),
              ErrorCode::kNone);
  }
  static ClusterConfig three_brokers() {
    ClusterConfig config;
    config.brokers = 3;
    return config;
  }
  BatchLog& log() { return *cluster.find_partition("t", 0); }
  PartitionReplicas& replicas() { return log().replicas(); }
  StoredTopic& topic() { return *cluster.find_topic("t"); }
  void produce(int count) {
    protocol::RecordBatchBuilder builder;
    for (int i = 0; i < count; ++i) {
      builder.add(protocol::ByteView::of("k"), protocol::ByteView::of("v"), 1000 + i);
    }
    const auto batch = builder.build();
    const auto header = protocol::parse_record_batch_header(batch);
    ASSERT_TRUE(
        cluster.append(topic(), 0, batch, header->last_offset_delta, header->max_timestamp));
  }
  ErrorCode reassign(const Nodes& target) {
    reason.clear();
    return controller.reassign(topic(), 0, target, reason);
  }
  void tick() {
    now += 20;
    controller.tick();
  }

  std::int64_t now = 1'000'000;
  std::string reason;
  Cluster cluster{three_brokers()};
  AppendNotifier notifier;
  ReplicationController controller{
      cluster, notifier, ReplicationSettings{.brokers = 3, .replica_lag_time_max_ms = 100},
      [this] { return now; }};
};

TEST(PlanReassignment, PutsTheTargetsFirstThenTheLeavingOriginals) {
  const ReassignmentPlan plan = plan_reassignment(Nodes{0, 1}, Nodes{1, 2});
  EXPECT_EQ(plan.replicas, (Nodes{1, 2, 0}));
  EXPECT_EQ(plan.change.original, (Nodes{0, 1}));
  EXPECT_EQ(plan.change.adding, (Nodes{2}));
  EXPECT_EQ(plan.change.removing, (Nodes{0}));
  const ReassignmentPlan reorder = plan_reassignment(Nodes{0, 1, 2}, Nodes{2, 0, 1});
  EXPECT_EQ(reorder.replicas, (Nodes{2, 0, 1}));
  EXPECT_TRUE(reorder.change.adding.empty());
  EXPECT_TRUE(reorder.change.removing.empty());
}

TEST_F(Reassignment, AddsTheNewReplicaOutOfTheIsrAndCompletesOnceItCaughtUp) {
  produce(3);
  ASSERT_EQ(reassign({1, 2}), ErrorCode::kNone) << reason;
  // The union, targets first; broker 2 has nothing yet and is not in the ISR.
  EXPECT_EQ(replicas().replica_nodes(), (Nodes{1, 2, 0}));
  EXPECT_EQ(replicas().isr_nodes(), (Nodes{1, 0}));
  ASSERT_TRUE(replicas().reassignment().has_value());
  EXPECT_EQ(replicas().reassignment()->adding, (Nodes{2}));
  EXPECT_EQ(replicas().reassignment()->removing, (Nodes{0}));
  EXPECT_EQ(replicas().find(2)->log_end_offset, 0);
  EXPECT_EQ(replicas().leader(), 0);
  EXPECT_EQ(log().high_watermark(), 3);  // the added replica does not hold it back

  // At the tick broker 2 fetches, joins the ISR, and the move completes: broker 0 leaves and
  // leadership goes to the first target at a new epoch.
  tick();
  EXPECT_FALSE(replicas().reassignment().has_value());
  EXPECT_EQ(replicas().replica_nodes(), (Nodes{1, 2}));
  EXPECT_EQ(replicas().isr_nodes(), (Nodes{1, 2}));
  EXPECT_EQ(replicas().leader(), 1);
  EXPECT_EQ(replicas().leader_epoch(), 1);
  EXPECT_EQ(log().high_watermark(), 3);
  EXPECT_EQ(log().log_end_offset(), 3);
  EXPECT_EQ(controller.leadership(log(), 0), Leadership::kNotLeader);
  EXPECT_EQ(controller.leadership(log(), 1), Leadership::kLeader);
}

TEST_F(Reassignment, ALateAddedReplicaKeepsTheReassignmentInProgressAndTheLeaderInPlace) {
  ASSERT_EQ(controller.set_replication_delay(2, 1'000'000), ErrorCode::kNone);
  produce(2);
  ASSERT_EQ(reassign({0, 2}), ErrorCode::kNone) << reason;
  tick();  // its first fetch is due only after the delay
  produce(2);
  tick();
  ASSERT_TRUE(replicas().reassignment().has_value());
  EXPECT_EQ(replicas().replica_nodes(), (Nodes{0, 2, 1}));
  EXPECT_EQ(replicas().find(2)->log_end_offset, 0);
  EXPECT_EQ(replicas().isr_nodes(), (Nodes{0, 1}));
  ASSERT_EQ(controller.set_replication_delay(2, 0), ErrorCode::kNone);
  tick();
  EXPECT_FALSE(replicas().reassignment().has_value());
  EXPECT_EQ(replicas().replica_nodes(), (Nodes{0, 2}));
  EXPECT_EQ(replicas().leader(), 0);
  EXPECT_EQ(replicas().leader_epoch(), 0);  // the leader stayed: no election
  EXPECT_EQ(log().high_watermark(), 4);
}

TEST_F(Reassignment, ATargetOnAStoppedBrokerNeverCompletesAndCancellingRestoresTheOriginal) {
  ASSERT_EQ(controller.stop(2), ErrorCode::kNone);
  produce(1);
  ASSERT_EQ(reassign({1, 2}), ErrorCode::kNone) << reason;
  tick();
  tick();
  ASSERT_TRUE(replicas().reassignment().has_value());
  EXPECT_EQ(controller.cancel_reassignment(topic(), 0, reason), ErrorCode::kNone) << reason;
  EXPECT_FALSE(replicas().reassignment().has_value());
  EXPECT_EQ(replicas().replica_nodes(), (Nodes{0, 1}));  // the original order comes back
  EXPECT_EQ(replicas().isr_nodes(), (Nodes{0, 1}));
  EXPECT_EQ(replicas().leader(), 0);
  EXPECT_EQ(controller.cancel_reassignment(topic(), 0, reason),
            ErrorCode::kNoReassignmentInProgress);
  EXPECT_NE(reason.find("nothing to cancel"), std::string::npos) << reason;
}

TEST_F(Reassignment, RefusesEmptyUnknownOrRepeatedTargetsAndChangesNothing) {
  EXPECT_EQ(reassign({}), ErrorCode::kInvalidReplicaAssignment);
  EXPECT_NE(reason.find("empty"), std::string::npos) << reason;
  EXPECT_EQ(reassign({1, 3}), ErrorCode::kInvalidReplicaAssignment);
  EXPECT_NE(reason.find("broker 3 does not exist"), std::string::npos) << reason;
  EXPECT_EQ(reassign({2, 2}), ErrorCode::kInvalidReplicaAssignment);
  EXPECT_NE(reason.find("named twice"), std::string::npos) << reason;
  EXPECT_EQ(reassign({0, 1, 2, 0}), ErrorCode::kInvalidReplicaAssignment);
  EXPECT_NE(reason.find("the cluster has 3 brokers"), std::string::npos) << reason;
  EXPECT_EQ(replicas().replica_nodes(), (Nodes{0, 1}));
  EXPECT_FALSE(replicas().reassignment().has_value());
}

TEST_F(Reassignment, RefusingAFactorChangeRefusesOtherLengthsAndTakesMovesOfTheSameLength) {
  const auto refused = ReplicationFactorChange::kRefused;
  EXPECT_EQ(controller.reassign(topic(), 0, Nodes{0, 1, 2}, reason, refused),
            ErrorCode::kInvalidReplicationFactor);
  EXPECT_NE(reason.find("would change from 2 to 3"), std::string::npos) << reason;
  EXPECT_EQ(controller.reassign(topic(), 0, Nodes{0}, reason, refused),
            ErrorCode::kInvalidReplicationFactor);
  EXPECT_NE(reason.find("from 2 to 1"), std::string::npos) << reason;
  EXPECT_EQ(replicas().replica_nodes(), (Nodes{0, 1}));
  EXPECT_FALSE(replicas().reassignment().has_value());
  // The target is checked first: a bad one is INVALID_REPLICA_ASSIGNMENT whatever its length.
  EXPECT_EQ(controller.reassign(topic(), 0, Nodes{2, 2, 2}, reason, refused),
            ErrorCode::kInvalidReplicaAssignment);
  // The same factor on other brokers is a move.
  ASSERT_EQ(controller.stop(2), ErrorCode::kNone);  // so that it stays in progress
  ASSERT_EQ(controller.reassign(topic(), 0, Nodes{1, 2}, reason, refused), ErrorCode::kNone)
      << reason;
  // In progress, the factor compared with is the target's (2), not the union's (3).
  EXPECT_EQ(replicas().replica_nodes(), (Nodes{1, 2, 0}));
  EXPECT_EQ(controller.reassign(topic(), 0, Nodes{2, 0}, reason, refused), ErrorCode::kNone)
      << reason;
  EXPECT_EQ(controller.reassign(topic(), 0, Nodes{0, 1, 2}, reason, refused),
            ErrorCode::kInvalidReplicationFactor);
  // Allowed (the default, and v0), the factor may change.
  EXPECT_EQ(reassign({0, 1, 2}), ErrorCode::kNone) << reason;
}

TEST_F(Reassignment, ReorderingTheReplicasCompletesAtOnceAndMovesThePreferredLeader) {
  ASSERT_EQ(reassign({1, 0}), ErrorCode::kNone) << reason;
  EXPECT_FALSE(replicas().reassignment().has_value());
  EXPECT_EQ(replicas().replica_nodes(), (Nodes{1, 0}));
  EXPECT_EQ(replicas().leader(), 0);  // leadership moves only with an election
  EXPECT_EQ(controller.elect_preferred(topic(), 0), ErrorCode::kNone);
  EXPECT_EQ(replicas().leader(), 1);
}

TEST_F(Reassignment, RemovingAnInSyncReplicaCompletesAtOnce) {
  produce(1);
  ASSERT_EQ(reassign({1}), ErrorCode::kNone) << reason;
  EXPECT_FALSE(replicas().reassignment().has_value());
  EXPECT_EQ(replicas().replica_nodes(), (Nodes{1}));
  EXPECT_EQ(replicas().leader(), 1);
  EXPECT_EQ(log().high_watermark(), 1);
}

TEST_F(Reassignment, ANewTargetReplacesTheMoveInProgressFromTheOriginalReplicas) {
  ASSERT_EQ(controller.stop(2), ErrorCode::kNone);
  ASSERT_EQ(reassign({1, 2}), ErrorCode::kNone) << reason;
  ASSERT_TRUE(replicas().reassignment().has_value());
  // Broker 2 was being added; the new target does not want it: it leaves at once.
  ASSERT_EQ(reassign({0}), ErrorCode::kNone) << reason;
  EXPECT_FALSE(replicas().reassignment().has_value());
  EXPECT_EQ(replicas().replica_nodes(), (Nodes{0}));
  EXPECT_EQ(replicas().leader(), 0);
}

TEST_F(Reassignment, CancellingIsRefusedWhileOnlyAnAddedReplicaCanLead) {
  ASSERT_EQ(cluster.create_topic("solo", 1, std::nullopt, {.assignment = {{0}}}), ErrorCode::kNone);
  StoredTopic& solo = *cluster.find_topic("solo");
  PartitionReplicas& moving = solo.partitions[0].replicas();
  ASSERT_EQ(controller.stop(2), ErrorCode::kNone);  // target 2 never catches up
  ASSERT_EQ(controller.reassign(solo, 0, Nodes{1, 2}, reason), ErrorCode::kNone) << reason;
  tick();  // broker 1 joins the ISR
  ASSERT_EQ(controller.stop(0), ErrorCode::kNone);
  ASSERT_EQ(moving.leader(), 1);  // an added replica leads
  EXPECT_EQ(controller.cancel_reassignment(solo, 0, reason), ErrorCode::kInvalidReplicaAssignment);
  EXPECT_NE(reason.find("none is running and in sync"), std::string::npos) << reason;
  EXPECT_EQ(moving.replica_nodes(), (Nodes{1, 2, 0}));
  EXPECT_TRUE(moving.reassignment().has_value());
  // Once the original replica is back in the ISR, the cancel goes through and it leads.
  ASSERT_EQ(controller.start(0), ErrorCode::kNone);
  tick();
  EXPECT_EQ(controller.cancel_reassignment(solo, 0, reason), ErrorCode::kNone) << reason;
  EXPECT_EQ(moving.replica_nodes(), (Nodes{0}));
  EXPECT_EQ(moving.leader(), 0);
  EXPECT_FALSE(moving.reassignment().has_value());
}

}  // namespace
}  // namespace kgroups::broker
