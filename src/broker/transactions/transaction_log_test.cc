// SPDX-License-Identifier: Apache-2.0
//
// The transaction coordinator's log, __transaction_state: the records a transaction's life
// writes (Kafka's states, in order, with the partitions), the newest-wins reading of a
// partition with tombstones, and the coordinator rebuilt from the log on a move: the log's
// state stands over memory's, and a prepared transaction is completed.
#include <gtest/gtest.h>

#include <chrono>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "broker/coordinator/in_memory_topic_catalog.h"
#include "broker/groups/coordinator_log_replay.h"
#include "broker/transactions/transaction_coordinator.h"
#include "broker/transactions/transaction_log_reader.h"
#include "protocol/coordinator_records/transaction_log_key.h"
#include "protocol/coordinator_records/transaction_log_value.h"
#include "protocol/record_batch.h"

namespace kgroups::broker {
namespace {

using protocol::ErrorCode;
using protocol::TransactionLogState;
using protocol::TransactionLogValue;

struct LoggedRecord {
  std::string transactional_id;
  std::optional<TransactionLogValue> value;  // nullopt: a tombstone
};

class TransactionLogTest : public ::testing::Test {
 protected:
  TransactionLogTest() {
    EXPECT_EQ(cluster_.create_topic("out", 2), ErrorCode::kNone);
    transactions_.set_log(&log_);
  }

  static TransactionLimits limits() {
    TransactionLimits limits;
    limits.max_transactional_ids = 2;
    limits.max_timeout_ms = 60000;
    return limits;
  }

  BatchLog& log_partition() { return log_.ensure_created()->partitions.front(); }

  // Every record of the log, in order.
  std::vector<LoggedRecord> logged() {
    std::vector<LoggedRecord> out;
    (void)replay_coordinator_log(log_partition(), [&out](const protocol::BatchRecord& record) {
      LoggedRecord decoded{.transactional_id = *protocol::TransactionLogKey::decode(*record.key),
                           .value = std::nullopt};
      if (record.value) decoded.value = *TransactionLogValue::decode(*record.value);
      out.push_back(std::move(decoded));
      return true;
    });
    return out;
  }

  std::vector<TransactionLogState> logged_states() {
    std::vector<TransactionLogState> states;
    for (const LoggedRecord& record : logged()) states.push_back(record.value->state);
    return states;
  }

  void append(std::string_view id, const std::optional<TransactionLogValue>& value) {
    CoordinatorTopicRecord record{.key = protocol::TransactionLogKey::encode(id),
                                  .value = std::nullopt};
    if (value) record.value = value->encode();
    ASSERT_EQ(log_.append(0, {record}, 1000), ErrorCode::kNone);
  }

  static TransactionLogValue value(std::int64_t producer_id, std::int16_t epoch,
                                   TransactionLogState state,
                                   std::vector<protocol::TransactionLogTopic> partitions = {}) {
    TransactionLogValue value;
    value.producer_id = producer_id;
    value.producer_epoch = epoch;
    value.timeout_ms = 10000;
    value.state = state;
    if (state != TransactionLogState::kEmpty) value.partitions = std::move(partitions);
    return value;
  }

  TransactionLoadResult load() {
    return transactions_.load_partition(0, read_transaction_log(log_partition()).transactions);
  }

  ManualClock clock_;
  Cluster cluster_{ClusterConfig{}};
  AppendNotifier notifier_;
  CoordinatorTopic log_{
      cluster_, notifier_,
      CoordinatorTopicConfig{
          .name = kTransactionStateTopicName, .partitions = 1, .replication_factor = 1}};
  ProducerRegistry producers_{10, 100};
  InMemoryTopicCatalog catalog_;
  CoordinatorService groups_{CoordinatorConfig{}, ConsumerGroupConfig{}, catalog_};
  TransactionCoordinator transactions_{limits(), clock_, cluster_, producers_, notifier_, groups_};
};

TEST_F(TransactionLogTest, ACommittedTransactionLogsKafkasStatesInOrder) {
  const InitProducerIdResult producer = transactions_.init_producer_id("t", 10000, -1, -1);
  const auto id = producer.producer_id;
  ASSERT_EQ(transactions_.add_partitions("t", id, 0, {{"out", 1}, {"out", 0}}),
            (std::vector<ErrorCode>{ErrorCode::kNone, ErrorCode::kNone}));
  (void)transactions_.add_partitions("t", id, 0, {{"out", 0}});  // nothing new: no record
  ASSERT_EQ(transactions_.add_offsets("t", id, 0, "g"), ErrorCode::kNone);
  ASSERT_EQ(transactions_.end_transaction("t", id, 0, /*commit=*/true), ErrorCode::kNone);

  const std::vector<LoggedRecord> records = logged();
  EXPECT_EQ(logged_states(), (std::vector<TransactionLogState>{
                                 TransactionLogState::kEmpty, TransactionLogState::kOngoing,
                                 TransactionLogState::kOngoing, TransactionLogState::kPrepareCommit,
                                 TransactionLogState::kCompleteCommit}));
  for (const LoggedRecord& record : records) {
    EXPECT_EQ(record.transactional_id, "t");
    EXPECT_EQ(record.value->producer_id, id);
    EXPECT_EQ(record.value->producer_epoch, 0);
    EXPECT_EQ(record.value->timeout_ms, 10000);
    EXPECT_EQ(record.value->version, 0);
  }
  EXPECT_FALSE(records[0].value->partitions.has_value());  // Empty: null
  EXPECT_EQ(records[0].value->start_timestamp_ms, -1);
  const std::vector<protocol::TransactionLogTopic> both = {{"out", {0, 1}}};
  EXPECT_EQ(records[1].value->partitions, both);
  EXPECT_EQ(records[3].value->partitions, both);  // PrepareCommit: what the markers go to
  EXPECT_GT(records[3].value->start_timestamp_ms, 0);
  EXPECT_EQ(records[4].value->partitions, std::vector<protocol::TransactionLogTopic>{});
}

TEST_F(TransactionLogTest, AGroupIsListedAsItsConsumerOffsetsPartitionAndLoadedFromMemory) {
  CoordinatorTopic offsets{cluster_, notifier_, sized(kOffsetsTopic, 3, 1)};
  groups_.set_offsets_topic(&offsets);
  const auto id = transactions_.init_producer_id("t", 10000, -1, -1).producer_id;
  ASSERT_EQ(transactions_.add_offsets("t", id, 0, "billing"), ErrorCode::kNone);
  const std::vector<LoggedRecord> records = logged();
  ASSERT_EQ(records.size(), 2U);
  const std::vector<protocol::TransactionLogTopic> listed = {
      {std::string(kOffsetsTopicName), {offsets.partition_for("billing")}}};
  EXPECT_EQ(records[1].value->partitions, listed);

  // Loaded, the transaction goes on with its group (kept from memory: the same transaction),
  // and __consumer_offsets is not taken for a partition the producer writes to.
  EXPECT_EQ(load().ids, 1U);
  EXPECT_EQ(transactions_.check_write(id, kOffsetsTopicName, offsets.partition_for("billing"),
                                      /*transactional=*/true),
            ErrorCode::kInvalidTxnState);
  OffsetCommitParams commit;
  commit.group_id = "billing";
  commit.offsets = {{{"out", 0}, {5, ""}}};
  EXPECT_EQ(transactions_.commit_offsets("t", id, 0, commit),
            std::vector<ErrorCode>{ErrorCode::kNone});
  groups_.set_offsets_topic(nullptr);
}

TEST_F(TransactionLogTest, ATimeoutAbortAndAnInitDuringATransactionAreLogged) {
  const auto id = transactions_.init_producer_id("t", 1000, -1, -1).producer_id;
  ASSERT_EQ(transactions_.add_partitions("t", id, 0, {{"out", 0}})[0], ErrorCode::kNone);
  clock_.advance(std::chrono::milliseconds(1001));
  ASSERT_EQ(transactions_.abort_expired(), 1U);
  ASSERT_EQ(transactions_.add_partitions("t", id, 1, {{"out", 0}})[0], ErrorCode::kNone);
  ASSERT_EQ(transactions_.init_producer_id("t", 1000, -1, -1).producer_epoch, 2);

  const std::vector<LoggedRecord> records = logged();
  EXPECT_EQ(logged_states(),
            (std::vector<TransactionLogState>{
                TransactionLogState::kEmpty, TransactionLogState::kOngoing,
                TransactionLogState::kPrepareAbort, TransactionLogState::kCompleteAbort,
                TransactionLogState::kOngoing, TransactionLogState::kPrepareAbort,
                TransactionLogState::kCompleteAbort, TransactionLogState::kEmpty}));
  std::vector<std::int16_t> epochs;
  for (const LoggedRecord& record : records) epochs.push_back(record.value->producer_epoch);
  // The timeout fences the producer (epoch 1); a new init during a transaction fences again.
  EXPECT_EQ(epochs, (std::vector<std::int16_t>{0, 0, 1, 1, 1, 2, 2, 2}));
}

TEST_F(TransactionLogTest, AForgottenIdIsATombstone) {
  (void)transactions_.init_producer_id("a", 1000, -1, -1);
  (void)transactions_.init_producer_id("b", 1000, -1, -1);
  (void)transactions_.init_producer_id("c", 1000, -1, -1);  // at the bound: "a" is forgotten
  const std::vector<LoggedRecord> records = logged();
  ASSERT_EQ(records.size(), 4U);
  EXPECT_EQ(records[2].transactional_id, "a");
  EXPECT_FALSE(records[2].value.has_value());
  EXPECT_EQ(records[3].transactional_id, "c");
}

TEST_F(TransactionLogTest, ReadingThePartitionKeepsEachIdsNewestRecordAndDropsTombstones) {
  append("a", value(1, 0, TransactionLogState::kEmpty));
  append("b", value(2, 0, TransactionLogState::kEmpty));
  append("a", value(1, 0, TransactionLogState::kOngoing, {{"out", {0}}}));
  append("b", std::nullopt);
  append("c", value(3, 4, TransactionLogState::kCompleteCommit));
  append("b", value(5, 0, TransactionLogState::kEmpty));  // a new life after the tombstone
  append("c", std::nullopt);
  const TransactionLogRead read = read_transaction_log(log_partition());
  EXPECT_EQ(read.records, 7U);
  EXPECT_EQ(read.skipped, 0U);
  ASSERT_EQ(read.transactions.size(), 2U);
  EXPECT_EQ(read.transactions.at("a").state, TransactionLogState::kOngoing);
  EXPECT_EQ(read.transactions.at("b").producer_id, 5);
  EXPECT_FALSE(read.transactions.contains("c"));
}

TEST_F(TransactionLogTest, LoadingRebuildsTheLogsStateNotWhatOnlyMemoryHeld) {
  const auto id = transactions_.init_producer_id("t", 10000, -1, -1).producer_id;
  ASSERT_EQ(transactions_.add_partitions("t", id, 0, {{"out", 0}})[0], ErrorCode::kNone);
  // What happens now reaches memory only: the transaction committed, a new epoch, another id.
  transactions_.set_log(nullptr);
  ASSERT_EQ(transactions_.end_transaction("t", id, 0, /*commit=*/true), ErrorCode::kNone);
  ASSERT_EQ(transactions_.init_producer_id("t", 10000, -1, -1).producer_epoch, 1);
  (void)transactions_.init_producer_id("memory-only", 10000, -1, -1);
  transactions_.set_log(&log_);

  const TransactionLoadResult loaded = load();
  EXPECT_EQ(loaded.ids, 1U);
  EXPECT_EQ(loaded.dropped, 1U);
  EXPECT_EQ(transactions_.state("memory-only"), std::nullopt);
  // The log's Ongoing transaction of epoch 0 with out-0 goes on; epoch 1 never happened.
  EXPECT_EQ(transactions_.state("t"), TransactionState::kOngoing);
  EXPECT_EQ(transactions_.check_write(id, "out", 0, /*transactional=*/true), ErrorCode::kNone);
  EXPECT_EQ(producers_.find(id)->epoch, 0);
  EXPECT_EQ(transactions_.add_partitions("t", id, 1, {{"out", 1}})[0], ErrorCode::kProducerFenced);
  EXPECT_EQ(transactions_.end_transaction("t", id, 0, /*commit=*/false), ErrorCode::kNone);
  EXPECT_EQ(transactions_.state("t"), TransactionState::kCompleteAbort);
}

TEST_F(TransactionLogTest, LoadingCompletesAPreparedTransactionWithItsMarkers) {
  append("p", value(7, 3, TransactionLogState::kPrepareCommit, {{"out", {1}}}));
  append("d", value(8, 0, TransactionLogState::kDead));
  const TransactionLoadResult loaded = load();
  EXPECT_EQ(loaded.completed, 1U);
  EXPECT_EQ(transactions_.state("p"), TransactionState::kCompleteCommit);
  EXPECT_EQ(transactions_.state("d"), std::nullopt);
  ASSERT_NE(producers_.find(7), nullptr);
  EXPECT_EQ(producers_.find(7)->epoch, 3);
  // The commit marker went into out-1, and the log says the transaction completed.
  const BatchLog& out = cluster_.find_topic("out")->partitions[1];
  ASSERT_EQ(out.high_watermark(), 1);
  const auto header = protocol::parse_record_batch_header(out.batches_from(0).front().bytes());
  ASSERT_TRUE(header);
  EXPECT_TRUE(header->is_control());
  EXPECT_EQ(header->producer_id, 7);
  EXPECT_EQ(logged_states().back(), TransactionLogState::kCompleteCommit);
  // Ids issued later are new ones.
  EXPECT_GT(transactions_.init_producer_id("new", 1000, -1, -1).producer_id, 7);
}

}  // namespace
}  // namespace kgroups::broker
