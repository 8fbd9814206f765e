// SPDX-License-Identifier: Apache-2.0
//
// An idempotent acks=all producer's pipelined batches when its leader stops before reading
// them, with --brokers 3 and min.insync.replicas 2: the producer sends them again, in order, to
// the new leader, whose ISR is below the minimum for a while. Kafka answers each batch on its
// own: the first gets NOT_ENOUGH_REPLICAS (nothing stored); if a follower rejoins the ISR
// before the second arrives, the second gets OUT_OF_ORDER_SEQUENCE_NUMBER, since the sequence
// before it is not in the log; the first's next retry is then stored, and the second's after
// it. A producer must retry the second after the first (librdkafka before 2.3.0 took the
// disconnection as "possibly stored", moved its expected sequence past both batches, and
// failed fatally on that OUT_OF_ORDER_SEQUENCE_NUMBER: its issue 4438; docs/CLUSTER.md).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "broker/node/broker.h"
#include "broker/node/idempotent_produce_for_tests.h"

namespace kgroups::broker {
namespace {

using protocol::ErrorCode;

struct StoppedLeader : ::testing::Test {
  StoppedLeader() {
    EXPECT_EQ(broker.cluster().create_topic("orders", 1, std::nullopt, {.assignment = {{0, 1, 2}}}),
              ErrorCode::kNone);
  }
  BatchLog& log() { return *broker.cluster().find_partition("orders", 0); }
  // Produces to `node` and settles at once (every running in-sync follower fetches at once).
  ProduceOutcome produce_settled(std::int32_t node, std::int32_t sequence) {
    ProduceOutcome outcome = testing::produce_idempotent(broker, node, id, sequence, batch);
    EXPECT_TRUE(broker.producer().settle_replication(outcome, false));
    return outcome;
  }
  Broker broker{testing::three_brokers_min_insync_two(), testing::kTestMachineBytes};
  std::int64_t id = broker.producer_ids().issue(false);
  std::vector<std::uint8_t> batch;
};

TEST_F(StoppedLeader, RetriesMeetNotEnoughReplicasThenOutOfOrderUntilSentAgainInOrder) {
  ASSERT_EQ(testing::partition_answer(produce_settled(0, 0)).error_code, ErrorCode::kNone);
  // Broker 2 stops (the ISR is {0, 1}); then leader 0 stops with sequences 1 and 2 sent to it
  // but not read: broker 1 leads with an ISR of one.
  ASSERT_EQ(broker.replication().stop(2), ErrorCode::kNone);
  ASSERT_EQ(broker.replication().stop(0), ErrorCode::kNone);
  ASSERT_EQ(log().replicas().leader(), 1);
  ASSERT_EQ(log().replicas().isr_nodes(), (std::vector<std::int32_t>{1}));

  // Sequence 1 again, at the new leader: below min.insync.replicas, nothing is stored.
  EXPECT_EQ(testing::partition_answer(produce_settled(1, 1)).error_code,
            ErrorCode::kNotEnoughReplicas);
  EXPECT_EQ(log().log_end_offset(), 1);

  // Broker 2 starts and catches up at the next tick: the ISR is {1, 2} again.
  ASSERT_EQ(broker.replication().start(2), ErrorCode::kNone);
  broker.replication().tick();
  ASSERT_EQ(log().replicas().isr_nodes(), (std::vector<std::int32_t>{1, 2}));

  // Sequence 2 again: sequence 1 is not in the log, so it is out of order, and not stored.
  EXPECT_EQ(testing::partition_answer(produce_settled(1, 2)).error_code,
            ErrorCode::kOutOfOrderSequenceNumber);
  EXPECT_EQ(log().log_end_offset(), 1);

  // Sent again in order, each is stored once, and a further retry of either is a duplicate
  // answered with its offset.
  EXPECT_EQ(testing::partition_answer(produce_settled(1, 1)).base_offset, 1);
  EXPECT_EQ(testing::partition_answer(produce_settled(1, 2)).base_offset, 2);
  EXPECT_EQ(testing::partition_answer(produce_settled(1, 1)).base_offset, 1);
  EXPECT_EQ(log().log_end_offset(), 3);
  EXPECT_EQ(log().high_watermark(), 3);
}

}  // namespace
}  // namespace kgroups::broker
