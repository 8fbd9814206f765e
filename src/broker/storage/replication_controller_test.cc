// SPDX-License-Identifier: Apache-2.0
#include "broker/storage/replication_controller.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "broker/storage/replica_placement.h"
#include "protocol/record_batch.h"
#include "protocol/record_batch_builder.h"

namespace kgroups::broker {
namespace {

using protocol::ErrorCode;

std::vector<std::uint8_t> records(int count) {
  protocol::RecordBatchBuilder builder;
  for (int i = 0; i < count; ++i) {
    builder.add(protocol::ByteView::of("k"), protocol::ByteView::of("value"), 1000 + i);
  }
  return builder.build();
}

TopicReplication factor(std::int32_t replication_factor) {
  TopicReplication replication;
  replication.replication_factor = replication_factor;
  return replication;
}

// A three-broker cluster on a manual clock with one topic "t" of one partition on 0, 1, 2.
struct ThreeBrokers : ::testing::Test {
  ThreeBrokers() {
    cluster.set_replication(&controller);
    EXPECT_EQ(cluster.create_topic("t", 1, std::nullopt, {.assignment = {{0, 1, 2}}}),
              ErrorCode::kNone);
  }
  BatchLog& log() { return *cluster.find_partition("t", 0); }
  StoredTopic& topic() { return *cluster.find_topic("t"); }
  void produce(int count) {
    const auto batch = records(count);
    const auto header = protocol::parse_record_batch_header(batch);
    ASSERT_TRUE(
        cluster.append(topic(), 0, batch, header->last_offset_delta, header->max_timestamp));
  }

  std::int64_t now = 1'000'000;
  static ClusterConfig three_brokers() {
    ClusterConfig config;
    config.brokers = 3;
    config.default_replication_factor = 3;
    return config;
  }
  Cluster cluster{three_brokers()};
  AppendNotifier notifier;
  ReplicationController controller{
      cluster, notifier, ReplicationSettings{.brokers = 3, .replica_lag_time_max_ms = 100},
      [this] { return now; }};
};

TEST(ReplicaPlacement, SpreadsLeadersAndFollowersEvenlyAsKafkasRackUnawareAssignment) {
  const auto placed = place_replicas(3, 6, 3, 0, 0);
  ASSERT_EQ(placed.size(), 6u);
  std::map<std::int32_t, int> leaders;
  for (const auto& replicas : placed) {
    ASSERT_EQ(replicas.size(), 3u);
    EXPECT_NE(replicas[0], replicas[1]);
    EXPECT_NE(replicas[1], replicas[2]);
    EXPECT_NE(replicas[0], replicas[2]);
    ++leaders[replicas[0]];
  }
  EXPECT_EQ(leaders, (std::map<std::int32_t, int>{{0, 2}, {1, 2}, {2, 2}}));
  // Kafka's example: 5 brokers, 10 partitions, factor 3, start 0, shift 0.
  const auto five = place_replicas(5, 10, 3, 0, 0);
  EXPECT_EQ(five[0], (std::vector<std::int32_t>{0, 1, 2}));
  EXPECT_EQ(five[4], (std::vector<std::int32_t>{4, 0, 1}));
  EXPECT_EQ(five[5], (std::vector<std::int32_t>{0, 2, 3}));
}

TEST_F(ThreeBrokers, RefusesAReplicationFactorBeyondTheBrokersAndBadAssignments) {
  EXPECT_EQ(cluster.create_topic("four", 1, std::nullopt, factor(4)),
            ErrorCode::kInvalidReplicationFactor);
  EXPECT_EQ(cluster.create_topic("zero", 1, std::nullopt, factor(0)),
            ErrorCode::kInvalidReplicationFactor);
  EXPECT_EQ(cluster.create_topic("bad", 1, std::nullopt, {.assignment = {{0, 3}}}),
            ErrorCode::kInvalidReplicaAssignment);
  EXPECT_EQ(cluster.create_topic("twice", 1, std::nullopt, {.assignment = {{1, 1}}}),
            ErrorCode::kInvalidReplicaAssignment);
  EXPECT_EQ(cluster.find_topic("four"), nullptr);
  EXPECT_EQ(cluster.create_topic("ok", 2, std::nullopt, {.assignment = {{2, 0}, {1, 2}}}),
            ErrorCode::kNone);
  EXPECT_EQ(cluster.find_partition("ok", 1)->replicas().leader(), 1);
}

TEST_F(ThreeBrokers, FollowersThatFetchAtOnceCommitEveryAppendInTheSameTurn) {
  produce(3);
  EXPECT_EQ(log().log_end_offset(), 3);
  EXPECT_EQ(log().high_watermark(), 3);
  EXPECT_EQ(log().replicas().isr_nodes(), (std::vector<std::int32_t>{0, 1, 2}));
}

TEST_F(ThreeBrokers, ALateFollowerHoldsTheHighWatermarkThenLeavesTheIsrAfterTheLagTime) {
  produce(2);
  ASSERT_EQ(controller.set_replication_delay(2, 1'000'000), ErrorCode::kNone);
  now += 10;
  controller.tick();  // fetches once more, then only after the delay
  produce(3);
  EXPECT_EQ(log().log_end_offset(), 5);
  EXPECT_EQ(log().high_watermark(), 2);  // follower 2 has not fetched the new records
  now += 50;
  controller.tick();
  EXPECT_EQ(log().high_watermark(), 2);
  EXPECT_EQ(log().replicas().isr_size(), 3u);
  now += 100;  // more than replica.lag.time.max.ms since it last caught up
  controller.tick();
  EXPECT_EQ(log().replicas().isr_nodes(), (std::vector<std::int32_t>{0, 1}));
  EXPECT_EQ(log().high_watermark(), 5);  // the remaining ISR has everything
  // Without the delay it fetches, catches up and rejoins; the high watermark never went back.
  ASSERT_EQ(controller.set_replication_delay(2, 0), ErrorCode::kNone);
  now += 1;
  controller.tick();
  EXPECT_EQ(log().replicas().isr_nodes(), (std::vector<std::int32_t>{0, 1, 2}));
  EXPECT_EQ(log().high_watermark(), 5);
}

TEST_F(ThreeBrokers, StoppingTheLeaderElectsTheNextInSyncReplicaAtANewEpoch) {
  produce(4);
  ASSERT_EQ(controller.stop(0), ErrorCode::kNone);
  EXPECT_EQ(log().replicas().leader(), 1);
  EXPECT_EQ(log().replicas().leader_epoch(), 1);
  EXPECT_EQ(log().replicas().isr_nodes(), (std::vector<std::int32_t>{1, 2}));
  EXPECT_EQ(log().high_watermark(), 4);
  EXPECT_EQ(controller.leadership(log(), 0), Leadership::kNotLeader);
  EXPECT_EQ(controller.leadership(log(), 1), Leadership::kLeader);
  EXPECT_EQ(controller.controller_id(), 1);
  produce(1);
  // Epoch 0 ended at 4, where epoch 1 began; epoch 1 ends at the log end.
  EXPECT_EQ(log().replicas().end_offset_for(0, log().log_end_offset()),
            (std::pair<std::int32_t, std::int64_t>{0, 4}));
  EXPECT_EQ(log().replicas().end_offset_for(1, log().log_end_offset()),
            (std::pair<std::int32_t, std::int64_t>{1, 5}));
  // The old leader starts again as a follower and rejoins the ISR once it caught up.
  ASSERT_EQ(controller.start(0), ErrorCode::kNone);
  EXPECT_EQ(log().replicas().leader(), 1);
  now += 1;
  controller.tick();
  EXPECT_EQ(log().replicas().isr_nodes(), (std::vector<std::int32_t>{0, 1, 2}));
  // Preferred-leader election moves leadership back to the first replica.
  EXPECT_EQ(controller.elect_preferred(topic(), 0), ErrorCode::kNone);
  EXPECT_EQ(log().replicas().leader(), 0);
  EXPECT_EQ(controller.elect_preferred(topic(), 0), ErrorCode::kElectionNotNeeded);
}

TEST_F(ThreeBrokers, ACleanElectionTruncatesOnlyWhatTheNewLeaderNeverHad) {
  produce(2);  // committed: 0..1
  controller.set_replication_delay(1, 1'000'000);
  controller.set_replication_delay(2, 1'000'000);
  now += 1;
  controller.tick();
  produce(3);  // acks=1 records 2..4: only the leader has them
  EXPECT_EQ(log().high_watermark(), 2);
  controller.stop(0);
  EXPECT_EQ(log().replicas().leader(), 1);
  EXPECT_EQ(log().log_end_offset(), 2);  // truncated to what broker 1 had
  EXPECT_EQ(log().high_watermark(), 2);
}

TEST_F(ThreeBrokers, AnUncleanElectionLosesWhatTheOutOfSyncReplicaLacksAndSaysSo) {
  struct Lost : ReplicationObserver {
    void on_leader_elected(const StoredTopic&, std::int32_t, std::int32_t leader, std::int32_t,
                           bool unclean_election, std::int64_t lost_records) override {
      last_leader = leader;
      unclean = unclean_election;
      lost = lost_records;
    }
    std::int32_t last_leader = -2;
    bool unclean = false;
    std::int64_t lost = 0;
  } observer;
  controller.set_observer(&observer);
  produce(2);
  controller.set_replication_delay(2, 1'000'000);
  now += 1;
  controller.tick();
  produce(3);  // 0, 1 have 5; 2 has 2
  now += 200;
  controller.tick();  // 2 leaves the ISR; the high watermark is 5
  ASSERT_EQ(log().high_watermark(), 5);
  controller.stop(1);
  controller.stop(0);  // the last in-sync replica: no clean leader is left
  EXPECT_EQ(log().replicas().leader(), -1);
  EXPECT_EQ(log().replicas().isr_nodes(), (std::vector<std::int32_t>{0}));
  EXPECT_EQ(controller.elect_unclean(topic(), 0), ErrorCode::kNone);
  EXPECT_EQ(log().replicas().leader(), 2);
  EXPECT_TRUE(observer.unclean);
  EXPECT_EQ(observer.lost, 3);
  EXPECT_EQ(log().log_end_offset(), 2);
  EXPECT_EQ(log().high_watermark(), 2);  // went back: the loss is visible
  EXPECT_EQ(log().replicas().isr_nodes(), (std::vector<std::int32_t>{2}));
}

TEST_F(ThreeBrokers, AnIsolatedLeaderStillBelievesItLeadsButNeverCommits) {
  produce(2);
  ASSERT_EQ(controller.isolate(0), ErrorCode::kNone);
  EXPECT_EQ(controller.state(0), BrokerState::kIsolated);
  EXPECT_TRUE(controller.serves_clients(0));
  EXPECT_EQ(controller.leadership(log(), 0), Leadership::kStaleLeader);
  EXPECT_EQ(controller.leadership(log(), 1), Leadership::kLeader);
  EXPECT_EQ(log().replicas().stale_leader().high_watermark, 2);
  EXPECT_EQ(controller.stale_append(log(), 4), 2);  // acknowledged with acks=1, held by none
  produce(1);                                       // the new leader appends at 2
  EXPECT_EQ(log().log_end_offset(), 3);
  EXPECT_EQ(log().replicas().isr_nodes(), (std::vector<std::int32_t>{1, 2}));
  ASSERT_EQ(controller.start(0), ErrorCode::kNone);
  EXPECT_EQ(controller.leadership(log(), 0), Leadership::kNotLeader);
  EXPECT_EQ(log().replicas().stale_leader().node, -1);
}

TEST(PartitionReplicasEpochs, TheEpochCacheKeepsItsNewestEntriesOnly) {
  PartitionReplicas replicas;
  const std::int32_t nodes[] = {0, 1};
  replicas.assign(nodes, 0);
  const auto elections = static_cast<std::int32_t>(PartitionReplicas::kMaxEpochsKept) + 10;
  for (std::int32_t i = 1; i <= elections; ++i) replicas.elect(i % 2, i);
  EXPECT_EQ(replicas.epochs().size(), PartitionReplicas::kMaxEpochsKept);
  EXPECT_EQ(replicas.epochs().back().epoch, elections);
  // The current epoch ends at the log end; an epoch older than those kept ends where the
  // first kept one begins.
  EXPECT_EQ(replicas.end_offset_for(elections, 9999),
            (std::pair<std::int32_t, std::int64_t>{elections, 9999}));
  EXPECT_EQ(replicas.end_offset_for(1, 9999).second, replicas.epochs().front().start_offset);
}

TEST(BatchLogTruncation, DropsBatchesFromTheOffsetAndForgetsTheirProducerSequences) {
  BatchLog log;
  for (int i = 0; i < 3; ++i) {
    const auto batch = records(2);
    const auto header = protocol::parse_record_batch_header(batch);
    log.append(batch, header->last_offset_delta, header->max_timestamp);
  }
  log.producers().record(7, 0, 0, 1, 0);
  log.producers().record(7, 0, 2, 3, 2);
  log.producers().record(7, 0, 4, 5, 4);
  EXPECT_EQ(log.truncate_to(2), 4);
  EXPECT_EQ(log.log_end_offset(), 2);
  EXPECT_EQ(log.high_watermark(), 2);
  EXPECT_EQ(log.batch_count(), 1u);
  // Sequences 2..3 were truncated away: a retry of them is new, not a duplicate.
  const SequenceCheck retry = log.producers().check(7, 0, 2, 3);
  EXPECT_EQ(retry.error, ErrorCode::kNone);
  EXPECT_EQ(retry.duplicate_base_offset, -1);
  // The next append goes on at the truncation point.
  const auto batch = records(1);
  const auto header = protocol::parse_record_batch_header(batch);
  EXPECT_EQ(log.append(batch, header->last_offset_delta, header->max_timestamp), 2);
  EXPECT_EQ(log.batches_from(2).size(), 1u);
}

// A one-record batch of idempotent producer `producer_id` at `epoch` with sequence `sequence`.
std::vector<std::uint8_t> idempotent_record(std::int64_t producer_id, std::int16_t epoch,
                                            std::int32_t sequence) {
  protocol::RecordBatchBuilder builder;
  builder.set_producer(producer_id, epoch, sequence);
  const std::string value = "v" + std::to_string(sequence);
  builder.add(std::nullopt, protocol::ByteView::of(value), 1000);
  return builder.build();
}

// Appends a producer's batch to `log` and records it as ProducerWrites does.
void append_idempotent(BatchLog& log, std::int64_t producer_id, std::int16_t epoch,
                       std::int32_t sequence) {
  const auto batch = idempotent_record(producer_id, epoch, sequence);
  const auto header = protocol::parse_record_batch_header(batch);
  const std::int64_t base = log.append(batch, header->last_offset_delta, header->max_timestamp);
  log.producers().record(producer_id, epoch, sequence, sequence, base);
}

// The retry of a batch that a timeout left possibly stored, after an election truncated the
// five batches sent behind it: Kafka rebuilds the producer's state from the log, so the retry
// is a duplicate (answered with the offset it has), not stored again nor out of order.
TEST(BatchLogTruncation, RebuildsProducerStateFromTheBatchesTheLogStillHolds) {
  BatchLog log;
  append_idempotent(log, 9, 0, 0);  // another producer, never truncated
  for (std::int32_t sequence = 0; sequence < 6; ++sequence) append_idempotent(log, 7, 0, sequence);
  // Offsets: producer 9 at 0; producer 7's sequences 0..5 at 1..6. Its remembered batches are
  // sequences 1..5; the truncation drops 1..5, so the log's newest batch of it is sequence 0.
  EXPECT_EQ(log.truncate_to(2), 5);
  const SequenceCheck retry = log.producers().check(7, 0, 0, 0);
  EXPECT_EQ(retry.error, ErrorCode::kNone);
  EXPECT_EQ(retry.duplicate_base_offset, 1);
  // The next sequence goes on after it; a gap is out of order, as before the truncation.
  EXPECT_EQ(log.producers().check(7, 0, 1, 1).duplicate_base_offset, -1);
  EXPECT_EQ(log.producers().check(7, 0, 1, 1).error, ErrorCode::kNone);
  EXPECT_EQ(log.producers().check(7, 0, 3, 3).error, ErrorCode::kOutOfOrderSequenceNumber);
  EXPECT_EQ(log.producers().check(9, 0, 0, 0).duplicate_base_offset, 0);
}

// With some of its batches left, a producer's entry is completed from older batches, up to
// the five Kafka keeps.
TEST(BatchLogTruncation, RefillsUpToTheFiveBatchesKafkaKeeps) {
  BatchLog log;
  for (std::int32_t sequence = 0; sequence < 8; ++sequence) append_idempotent(log, 7, 0, sequence);
  // Sequences 0..7 sit at offsets 0..7; truncating at 6 keeps sequences 0..5, of which the
  // entry remembered 3..5.
  EXPECT_EQ(log.truncate_to(6), 2);
  for (std::int32_t sequence = 1; sequence <= 5; ++sequence) {
    EXPECT_EQ(log.producers().check(7, 0, sequence, sequence).duplicate_base_offset, sequence)
        << "sequence " << sequence;
  }
  // Five kept: sequence 0 is not remembered, so a retry of it is out of order.
  EXPECT_EQ(log.producers().check(7, 0, 0, 0).error, ErrorCode::kOutOfOrderSequenceNumber);
  EXPECT_EQ(log.producers().check(7, 0, 6, 6).error, ErrorCode::kNone);
  EXPECT_EQ(log.producers().check(7, 0, 6, 6).duplicate_base_offset, -1);
}

// Only batches of the epoch of the producer's newest batch in the log are refilled, and that
// epoch becomes the entry's again (an epoch bump that was truncated away is forgotten).
TEST(BatchLogTruncation, RefillsBatchesOfTheNewestEpochOnly) {
  BatchLog log;
  append_idempotent(log, 7, 0, 0);  // offset 0
  append_idempotent(log, 7, 1, 0);  // offset 1
  append_idempotent(log, 7, 1, 1);  // offset 2
  for (std::int32_t sequence = 0; sequence < 5; ++sequence) {
    append_idempotent(log, 7, 2, sequence);  // offsets 3..7
  }
  EXPECT_EQ(log.truncate_to(3), 5);
  EXPECT_EQ(log.producers().check(7, 1, 1, 1).duplicate_base_offset, 2);
  EXPECT_EQ(log.producers().check(7, 1, 0, 0).duplicate_base_offset, 1);
  EXPECT_EQ(log.producers().check(7, 1, 2, 2).error, ErrorCode::kNone);
  EXPECT_EQ(log.producers().check(7, 0, 0, 0).error, ErrorCode::kInvalidProducerEpoch);
  // A newer epoch starts again at sequence 0.
  EXPECT_EQ(log.producers().check(7, 2, 3, 3).error, ErrorCode::kOutOfOrderSequenceNumber);
  EXPECT_EQ(log.producers().check(7, 2, 0, 0).error, ErrorCode::kNone);
}

}  // namespace
}  // namespace kgroups::broker
