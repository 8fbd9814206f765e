// SPDX-License-Identifier: Apache-2.0
#include "broker/transactions/transaction_coordinator.h"

#include <gtest/gtest.h>

#include <chrono>

#include "broker/coordinator/in_memory_topic_catalog.h"
#include "protocol/record_batch.h"
#include "protocol/record_validator.h"

namespace kgroups::broker {
namespace {

using protocol::ErrorCode;

class TransactionCoordinatorTest : public ::testing::Test {
 protected:
  TransactionCoordinatorTest() { EXPECT_EQ(cluster_.create_topic("out", 2), ErrorCode::kNone); }

  static TransactionLimits limits() {
    TransactionLimits limits;
    limits.max_transactional_ids = 2;
    limits.max_partitions_per_transaction = 3;
    limits.max_timeout_ms = 60000;
    return limits;
  }

  InitProducerIdResult init(std::string_view id, std::int32_t timeout_ms = 10000) {
    return transactions_.init_producer_id(id, timeout_ms, -1, -1);
  }

  BatchLog& partition(std::int32_t index) {
    return cluster_.find_topic("out")->partitions[static_cast<std::size_t>(index)];
  }

  // The header of the last batch of `log`.
  static protocol::RecordBatchHeader last_batch(const BatchLog& log) {
    const auto batches = log.batches_from(log.high_watermark() - 1);
    EXPECT_FALSE(batches.empty());
    return *protocol::parse_record_batch_header(batches.back().bytes());
  }

  ManualClock clock_;
  Cluster cluster_{ClusterConfig{}};
  ProducerRegistry producers_{10, 100};
  AppendNotifier notifier_;
  InMemoryTopicCatalog catalog_;
  CoordinatorService groups_{CoordinatorConfig{}, ConsumerGroupConfig{}, catalog_};
  TransactionCoordinator transactions_{limits(), clock_, cluster_, producers_, notifier_, groups_};
};

TEST_F(TransactionCoordinatorTest, InitGivesAnIdThenBumpsItsEpoch) {
  const InitProducerIdResult first = init("t");
  ASSERT_EQ(first.error, ErrorCode::kNone);
  EXPECT_EQ(first.producer_epoch, 0);
  ASSERT_NE(producers_.find(first.producer_id), nullptr);
  EXPECT_TRUE(producers_.find(first.producer_id)->transactional);
  const InitProducerIdResult second = init("t");
  EXPECT_EQ(second.producer_id, first.producer_id);
  EXPECT_EQ(second.producer_epoch, 1);
  EXPECT_EQ(producers_.find(first.producer_id)->epoch, 1);
  EXPECT_EQ(transactions_.state("t"), TransactionState::kEmpty);
  // The old epoch is fenced.
  EXPECT_EQ(transactions_.add_offsets("t", first.producer_id, 0, "g"), ErrorCode::kProducerFenced);
  // v3+: a producer naming an id and epoch that are not the current (or previous) ones.
  EXPECT_EQ(transactions_.init_producer_id("t", 1000, first.producer_id, 7).error,
            ErrorCode::kProducerFenced);
}

TEST_F(TransactionCoordinatorTest, InitRefusesBadTimeoutsAndIds) {
  EXPECT_EQ(init("t", 0).error, ErrorCode::kInvalidTransactionTimeout);
  EXPECT_EQ(init("t", 60001).error, ErrorCode::kInvalidTransactionTimeout);
  EXPECT_EQ(init("").error, ErrorCode::kInvalidRequest);
  EXPECT_EQ(transactions_.size(), 0U);
}

TEST_F(TransactionCoordinatorTest, CommitWritesACommitMarkerIntoEveryPartition) {
  const InitProducerIdResult producer = init("t");
  const auto errors =
      transactions_.add_partitions("t", producer.producer_id, 0, {{"out", 0}, {"out", 1}});
  EXPECT_EQ(errors, std::vector<ErrorCode>(2, ErrorCode::kNone));
  EXPECT_EQ(transactions_.state("t"), TransactionState::kOngoing);
  EXPECT_EQ(transactions_.check_write(producer.producer_id, "out", 0, true), ErrorCode::kNone);
  EXPECT_EQ(transactions_.check_write(producer.producer_id, "out", 0, false),
            ErrorCode::kInvalidTxnState);
  partition(0).transactions().on_transactional_append(producer.producer_id, 0);
  EXPECT_EQ(transactions_.end_transaction("t", producer.producer_id, 0, true), ErrorCode::kNone);
  EXPECT_EQ(transactions_.state("t"), TransactionState::kCompleteCommit);
  for (std::int32_t index : {0, 1}) {
    ASSERT_EQ(partition(index).high_watermark(), 1);
    const protocol::RecordBatchHeader marker = last_batch(partition(index));
    EXPECT_TRUE(marker.is_control());
    EXPECT_TRUE(marker.is_transactional());
    EXPECT_EQ(marker.producer_id, producer.producer_id);
    EXPECT_EQ(marker.producer_epoch, 0);
    EXPECT_EQ(marker.record_count, 1);
    const auto bytes = partition(index).batches_from(0).front().bytes();
    // The record: length, attributes, timestamp delta, offset delta, key length 4, then the
    // key: version 0, type 1 (commit).
    const std::size_t key = protocol::kBatchHeaderSize + 5;
    EXPECT_EQ(bytes[key - 1], 8);  // zig-zag 4
    EXPECT_EQ(bytes[key + 3], 1);
  }
  EXPECT_EQ(partition(0).transactions().last_stable_offset(1), 1);
  // A retried commit is fine; an abort now is not.
  EXPECT_EQ(transactions_.end_transaction("t", producer.producer_id, 0, true), ErrorCode::kNone);
  EXPECT_EQ(transactions_.end_transaction("t", producer.producer_id, 0, false),
            ErrorCode::kInvalidTxnState);
  // The transaction is over: a transactional write needs the partition added again.
  EXPECT_EQ(transactions_.check_write(producer.producer_id, "out", 0, true),
            ErrorCode::kInvalidTxnState);
}

TEST_F(TransactionCoordinatorTest, AbortWritesAbortMarkers) {
  const InitProducerIdResult producer = init("t");
  transactions_.add_partitions("t", producer.producer_id, 0, {{"out", 1}});
  EXPECT_EQ(transactions_.end_transaction("t", producer.producer_id, 0, false), ErrorCode::kNone);
  EXPECT_EQ(transactions_.state("t"), TransactionState::kCompleteAbort);
  EXPECT_EQ(partition(0).high_watermark(), 0);
  ASSERT_EQ(partition(1).high_watermark(), 1);
  const auto bytes = partition(1).batches_from(0).front().bytes();
  EXPECT_EQ(bytes[protocol::kBatchHeaderSize + 5 + 3], 0);  // type 0: abort
}

TEST_F(TransactionCoordinatorTest, AddPartitionsChecksTheProducerAndThePartitions) {
  const InitProducerIdResult producer = init("t");
  EXPECT_EQ(transactions_.add_partitions("nope", producer.producer_id, 0, {{"out", 0}}),
            std::vector<ErrorCode>{ErrorCode::kInvalidProducerIdMapping});
  EXPECT_EQ(transactions_.add_partitions("t", producer.producer_id + 1, 0, {{"out", 0}}),
            std::vector<ErrorCode>{ErrorCode::kInvalidProducerIdMapping});
  EXPECT_EQ(transactions_.add_partitions("t", producer.producer_id, 1, {{"out", 0}}),
            std::vector<ErrorCode>{ErrorCode::kProducerFenced});
  EXPECT_EQ(transactions_.add_partitions("t", producer.producer_id, 0, {{"out", 0}, {"out", 9}}),
            (std::vector<ErrorCode>{ErrorCode::kOperationNotAttempted,
                                    ErrorCode::kUnknownTopicOrPartition}));
  EXPECT_EQ(transactions_.state("t"), TransactionState::kEmpty);
  EXPECT_EQ(cluster_.create_topic("more", 4), ErrorCode::kNone);
  EXPECT_EQ(transactions_.add_partitions("t", producer.producer_id, 0,
                                         {{"more", 0}, {"more", 1}, {"more", 2}, {"more", 3}}),
            std::vector<ErrorCode>(4, ErrorCode::kInvalidTxnState));  // beyond 3 per transaction
  EXPECT_EQ(transactions_.end_transaction("t", producer.producer_id, 0, true),
            ErrorCode::kInvalidTxnState);  // nothing is open
}

TEST_F(TransactionCoordinatorTest, ReinitAbortsTheOpenTransactionAndFencesTheOldProducer) {
  const InitProducerIdResult old_producer = init("t");
  transactions_.add_partitions("t", old_producer.producer_id, 0, {{"out", 0}});
  const InitProducerIdResult new_producer = init("t");
  EXPECT_EQ(new_producer.producer_epoch, 1);
  EXPECT_EQ(transactions_.state("t"), TransactionState::kEmpty);
  ASSERT_EQ(partition(0).high_watermark(), 1);
  EXPECT_TRUE(last_batch(partition(0)).is_control());
  EXPECT_EQ(transactions_.end_transaction("t", old_producer.producer_id, 0, true),
            ErrorCode::kProducerFenced);
  EXPECT_EQ(producers_.find(old_producer.producer_id)->epoch, 1);
}

TEST_F(TransactionCoordinatorTest, TimedOutTransactionIsAbortedAndItsProducerFenced) {
  const InitProducerIdResult producer = init("t", 1000);
  transactions_.add_partitions("t", producer.producer_id, 0, {{"out", 0}});
  clock_.advance(std::chrono::milliseconds(1000));
  EXPECT_EQ(transactions_.abort_expired(), 0U);
  clock_.advance(std::chrono::milliseconds(1));
  EXPECT_EQ(transactions_.abort_expired(), 1U);
  EXPECT_EQ(transactions_.state("t"), TransactionState::kCompleteAbort);
  EXPECT_EQ(partition(0).high_watermark(), 1);
  EXPECT_EQ(transactions_.end_transaction("t", producer.producer_id, 0, true),
            ErrorCode::kProducerFenced);
}

TEST_F(TransactionCoordinatorTest, OffsetsArePendingUntilCommitAndDroppedOnAbort) {
  const InitProducerIdResult producer = init("t");
  OffsetCommitParams params;
  params.group_id = "g";
  params.offsets = {PartitionOffset{{"in", 0}, {42, "m"}}};
  // The group must be added first.
  EXPECT_EQ(transactions_.commit_offsets("t", producer.producer_id, 0, params),
            std::vector<ErrorCode>{ErrorCode::kInvalidTxnState});
  EXPECT_EQ(transactions_.add_offsets("t", producer.producer_id, 0, "g"), ErrorCode::kNone);
  EXPECT_EQ(transactions_.commit_offsets("t", producer.producer_id, 1, params),
            std::vector<ErrorCode>{ErrorCode::kInvalidProducerEpoch});
  EXPECT_EQ(transactions_.commit_offsets("t", producer.producer_id, 0, params),
            std::vector<ErrorCode>{ErrorCode::kNone});
  EXPECT_TRUE(transactions_.has_pending_offset("g", "in", 0));
  EXPECT_FALSE(transactions_.has_pending_offset("g", "in", 1));
  const GroupOffsetFetch fetch{.group_id = "g",
                               .partitions = std::vector<TopicPartition>{{"in", 0}}};
  EXPECT_EQ(groups_.fetch_offsets(fetch).offsets.at(0).committed.offset, -1);
  EXPECT_EQ(transactions_.end_transaction("t", producer.producer_id, 0, true), ErrorCode::kNone);
  EXPECT_FALSE(transactions_.has_pending_offset("g", "in", 0));
  const CommittedOffset committed = groups_.fetch_offsets(fetch).offsets.at(0).committed;
  EXPECT_EQ(committed.offset, 42);
  EXPECT_EQ(committed.metadata, "m");

  transactions_.add_offsets("t", producer.producer_id, 0, "g");
  params.offsets = {PartitionOffset{{"in", 0}, {99, ""}}};
  transactions_.commit_offsets("t", producer.producer_id, 0, params);
  EXPECT_EQ(transactions_.end_transaction("t", producer.producer_id, 0, false), ErrorCode::kNone);
  EXPECT_EQ(groups_.fetch_offsets(fetch).offsets.at(0).committed.offset, 42);
}

TEST_F(TransactionCoordinatorTest, TransactionalIdsAreBounded) {
  const InitProducerIdResult a = init("a");
  const InitProducerIdResult b = init("b");
  transactions_.add_partitions("b", b.producer_id, b.producer_epoch, {{"out", 0}});
  // "a" has no open transaction: it is forgotten for "c", with its producer id.
  EXPECT_EQ(init("c").error, ErrorCode::kNone);
  EXPECT_FALSE(transactions_.state("a").has_value());
  EXPECT_EQ(producers_.find(a.producer_id), nullptr);
  // "b" is open, so "c" goes for "d"; once "d" is open too, nothing can go.
  const InitProducerIdResult d = init("d");
  EXPECT_EQ(d.error, ErrorCode::kNone);
  EXPECT_FALSE(transactions_.state("c").has_value());
  transactions_.add_partitions("d", d.producer_id, d.producer_epoch, {{"out", 1}});
  EXPECT_EQ(init("e").error, ErrorCode::kCoordinatorLoadInProgress);
  EXPECT_EQ(transactions_.size(), 2U);
  EXPECT_EQ(transactions_.state("b"), TransactionState::kOngoing);
}

// An open transaction's partitions, groups and pending offsets are charged to the groups'
// share of the memory, refused with COORDINATOR_LOAD_IN_PROGRESS beyond it, and given back
// when the transaction ends.
TEST(TransactionMemory, OpenTransactionsAreChargedToTheGroupsShareAndGiveItBack) {
  ManualClock clock;
  Cluster cluster{ClusterConfig{}};
  ASSERT_EQ(cluster.create_topic("out", 2), ErrorCode::kNone);
  ProducerRegistry producers{10, 100};
  AppendNotifier notifier;
  InMemoryTopicCatalog catalog;
  CoordinatorConfig config;
  config.max_stored_bytes = 250;  // two partition entries of "out" (99 bytes each), no more
  CoordinatorService groups{config, ConsumerGroupConfig{}, catalog};
  TransactionCoordinator transactions{TransactionLimits{}, clock,    cluster,
                                      producers,           notifier, groups};
  const InitProducerIdResult producer = transactions.init_producer_id("t", 10000, -1, -1);
  ASSERT_EQ(producer.error, ErrorCode::kNone);
  const auto add = [&](const std::vector<TransactionPartition>& partitions) {
    return transactions.add_partitions("t", producer.producer_id, producer.producer_epoch,
                                       partitions);
  };
  EXPECT_EQ(add({{"out", 0}, {"out", 1}, {"out", 0}}), std::vector<ErrorCode>(3, ErrorCode::kNone));
  const std::size_t two_partitions = groups.held_bytes();
  EXPECT_GT(two_partitions, 0U);
  EXPECT_LE(two_partitions, 250U);
  EXPECT_EQ(add({{"out", 1}}), std::vector<ErrorCode>(1, ErrorCode::kNone)) << "no growth";
  EXPECT_EQ(transactions.add_offsets("t", producer.producer_id, producer.producer_epoch,
                                     "a-group-whose-entry-does-not-fit"),
            ErrorCode::kCoordinatorLoadInProgress);
  EXPECT_EQ(groups.held_bytes(), two_partitions) << "a refused request holds nothing";
  EXPECT_EQ(transactions.end_transaction("t", producer.producer_id, producer.producer_epoch, true),
            ErrorCode::kNone);
  EXPECT_EQ(groups.held_bytes(), 0U);
}

}  // namespace
}  // namespace kgroups::broker
