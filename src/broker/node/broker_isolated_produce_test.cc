// SPDX-License-Identifier: Apache-2.0
//
// acks=all writes to an isolated leader with --brokers 3 (Kafka's zombie leader): it checks
// them against the ISR it had when it was cut off, since it cannot change that ISR; it never
// acknowledges what it takes; and when it rejoins as a follower, the writes still waiting get
// NOT_LEADER_OR_FOLLOWER at once, as Kafka completes a delayed produce whose broker became a
// follower (the producer retries them at the leader, in order, with their sequences).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "broker/node/broker.h"
#include "broker/node/idempotent_produce_for_tests.h"

namespace kgroups::broker {
namespace {

using protocol::ErrorCode;

// The error code of the answer for "orders"[0].
ErrorCode answer(const ProduceOutcome& outcome) {
  return testing::partition_answer(outcome).error_code;
}

struct IsolatedLeader : ::testing::Test {
  IsolatedLeader() {
    EXPECT_EQ(broker.cluster().create_topic("orders", 1, std::nullopt, {.assignment = {{0, 1, 2}}}),
              ErrorCode::kNone);
  }
  BatchLog& log() { return *broker.cluster().find_partition("orders", 0); }
  Broker broker{testing::three_brokers_min_insync_two(), testing::kTestMachineBytes};
  std::int64_t id = broker.producer_ids().issue(false);
  std::vector<std::uint8_t> batch;
};

TEST_F(IsolatedLeader, ChecksMinInsyncReplicasAgainstTheIsrItHadWhenCutOff) {
  // Brokers 1 and 2 stop: the ISR shrinks to the leader alone, below min.insync.replicas.
  ASSERT_EQ(broker.replication().stop(1), ErrorCode::kNone);
  ASSERT_EQ(broker.replication().stop(2), ErrorCode::kNone);
  ASSERT_EQ(broker.replication().isolate(0), ErrorCode::kNone);
  ASSERT_EQ(broker.replication().leadership(log(), 0), Leadership::kStaleLeader);
  ProduceOutcome outcome = testing::produce_idempotent(broker, 0, id, 0, batch);
  EXPECT_EQ(answer(outcome), ErrorCode::kNotEnoughReplicas);
  EXPECT_TRUE(outcome.awaited.empty());
  EXPECT_EQ(log().replicas().stale_leader().lost_records, 0);
}

TEST_F(IsolatedLeader, ItsWaitingWritesGetNotLeaderWhenItRejoinsAsAFollower) {
  ASSERT_EQ(broker.replication().isolate(0), ErrorCode::kNone);
  ASSERT_EQ(broker.replication().leadership(log(), 0), Leadership::kStaleLeader);
  ProduceOutcome outcome = testing::produce_idempotent(broker, 0, id, 0, batch);
  ASSERT_EQ(outcome.awaited.size(), 1u);  // it believes in its ISR of three: the write waits
  EXPECT_FALSE(broker.producer().settle_replication(outcome, false));
  ASSERT_EQ(broker.replication().start(0), ErrorCode::kNone);
  EXPECT_TRUE(broker.producer().settle_replication(outcome, false));
  EXPECT_EQ(answer(outcome), ErrorCode::kNotLeaderForPartition);
  // Nothing of it is in the log: the leader takes the retry as new, at sequence 0.
  EXPECT_EQ(log().log_end_offset(), 0);
  const std::int32_t leader = log().replicas().leader();
  ProduceOutcome retry = testing::produce_idempotent(broker, leader, id, 0, batch);
  EXPECT_EQ(answer(retry), ErrorCode::kNone);
  EXPECT_EQ(log().log_end_offset(), 1);
}

}  // namespace
}  // namespace kgroups::broker
