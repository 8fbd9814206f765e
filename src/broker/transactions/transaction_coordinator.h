// SPDX-License-Identifier: Apache-2.0
//
// TransactionCoordinator: kgroupsd's transaction coordinator (Kafka's TransactionCoordinator
// and TransactionStateManager, served from memory, logged to __transaction_state). One object
// serves every broker of a --brokers N cluster: the handlers send each transactional id's
// requests only to the broker leading its __transaction_state partition. Per transactional id:
// its producer id and epoch, its state (Empty, Ongoing, PrepareCommit/PrepareAbort,
// CompleteCommit/CompleteAbort), the partitions and groups of its ongoing transaction, the
// offsets TxnOffsetCommit left pending, and its timeout. Ending a transaction writes a control
// batch (transaction_marker.h) into every partition of the transaction at once (Prepare* never
// outlives the call; only a log whose Complete record could not be appended keeps it, and a
// load completes it), tells each partition (PartitionTransactions::on_marker), wakes fetches
// waiting on them, and commits or drops the pending offsets.
// - init_producer_id(): a new id at epoch 0 the first time; later the same id with the epoch
//   bumped: the previous producer is fenced, and its open transaction is aborted first.
// - A transaction open longer than its timeout is aborted with the epoch bumped, so its
//   producer is fenced (Kafka's abortTimedOutTransactions); abort_expired() does that.
// - Its log: with set_log(), every state change Kafka logs is written to __transaction_state as
//   Kafka's TransactionLog record (key: the id; value v0: producer id and epoch, timeout, state,
//   partitions, timestamps): InitProducerId (Empty), AddPartitionsToTxn or AddOffsetsToTxn
//   adding to the transaction (Ongoing, with every partition, a group as its __consumer_offsets
//   partition as Kafka lists it), EndTxn and a timeout abort (PrepareCommit/PrepareAbort before
//   the markers, CompleteCommit/CompleteAbort after), an id forgotten (a tombstone). A record
//   that cannot be appended is logged; the coordinator goes on from memory.
// - load_partition(): when a partition of __transaction_state gets a new leader, its ids are
//   rebuilt from their newest records (transaction_log_reader.h): what memory holds and the
//   log does not is dropped, an Ongoing transaction goes on, a PrepareCommit/PrepareAbort is
//   completed (markers, then the Complete record). What the log does not hold (the groups of
//   a transaction and the offsets TxnOffsetCommit left pending) is kept from memory when the
//   loaded record is the transaction memory holds (same producer id, epoch and state).
// - Memory: an open transaction's partitions, groups and pending offsets are charged to the
//   groups' share of --max-memory (CoordinatorService::try_hold_bytes) as they are
//   added, and given back when it ends; a request they do not fit in gets
//   COORDINATOR_LOAD_IN_PROGRESS (retriable) and adds nothing.
// - Bounds: at most max_transactional_ids ids (one more forgets the least recently used id
//   without an open transaction, else COORDINATOR_LOAD_IN_PROGRESS), max_partitions_per_
//   transaction partitions and pending offsets per transaction (INVALID_TXN_STATE beyond), ids
//   of at most max_id_length bytes (INVALID_REQUEST).
// Errors are Kafka's; PRODUCER_FENCED is returned where Kafka's coordinator gives it, and
// handlers turn it into INVALID_PRODUCER_EPOCH for versions that predate it.
// Not thread-safe: the broker's network thread owns it.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "broker/coordinator/clock.h"
#include "broker/groups/coordinator_service.h"
#include "broker/groups/coordinator_topic.h"
#include "broker/runtime/log_throttle.h"
#include "broker/storage/append_notifier.h"
#include "broker/storage/cluster.h"
#include "broker/storage/producer_registry.h"
#include "protocol/coordinator_records/transaction_log_value.h"
#include "protocol/error_code.h"

namespace kgroups::broker {

// Kafka's transaction states, as its log records them. The coordinator holds Empty, Ongoing,
// PrepareCommit/PrepareAbort (only within a call) and CompleteCommit/CompleteAbort; Dead and
// PrepareEpochFence only come from a loaded log.
using TransactionState = protocol::TransactionLogState;

struct TransactionLimits {
  std::size_t max_transactional_ids = 1000;
  std::size_t max_partitions_per_transaction = 1000;  // and pending offsets per transaction
  std::int32_t max_timeout_ms = 900000;
  std::size_t max_id_length = 1024;
};

// Each transactional id's newest record in one partition of __transaction_state (ids whose
// newest record is a tombstone left out).
using LoadedTransactions = std::map<std::string, protocol::TransactionLogValue, std::less<>>;

struct TransactionLoadResult {
  std::size_t ids = 0;        // ids rebuilt from their records
  std::size_t dropped = 0;    // ids memory held that the log does not
  std::size_t completed = 0;  // PrepareCommit/PrepareAbort transactions completed
};

struct InitProducerIdResult {
  protocol::ErrorCode error = protocol::ErrorCode::kNone;
  std::int64_t producer_id = -1;
  std::int16_t producer_epoch = -1;
};

// A partition named by AddPartitionsToTxn.
struct TransactionPartition {
  std::string topic;
  std::int32_t partition = 0;

  // NOLINTNEXTLINE(modernize-use-nullptr): clang-tidy 14 misreads a defaulted <=>
  auto operator<=>(const TransactionPartition&) const = default;
};

class TransactionCoordinator {
 public:
  // All references must outlive the coordinator.
  TransactionCoordinator(TransactionLimits limits, const Clock& clock, Cluster& cluster,
                         ProducerRegistry& producers, AppendNotifier& notifier,
                         CoordinatorService& groups);
  TransactionCoordinator(const TransactionCoordinator&) = delete;
  TransactionCoordinator& operator=(const TransactionCoordinator&) = delete;

  // Where the coordinator writes its records (__transaction_state); nullptr: nowhere (the
  // default). `log` must outlive the coordinator or be replaced first.
  void set_log(CoordinatorTopic* log) { log_ = log; }

  // Rebuilds the ids of `partition` of the log from `loaded` (see above); needs set_log().
  TransactionLoadResult load_partition(std::int32_t partition, const LoadedTransactions& loaded);

  // InitProducerId with a transactional id. `expected_producer_id`/`expected_epoch` (v3+; -1
  // when not given) must be the id's current or previous ones (PRODUCER_FENCED otherwise).
  // Errors: INVALID_REQUEST (empty or too long id), INVALID_TRANSACTION_TIMEOUT (<= 0 or above
  // the max), COORDINATOR_LOAD_IN_PROGRESS (no room for one more id).
  InitProducerIdResult init_producer_id(std::string_view transactional_id, std::int32_t timeout_ms,
                                        std::int64_t expected_producer_id,
                                        std::int16_t expected_epoch);

  // AddPartitionsToTxn: one error per partition, in order. Partitions of unknown topics get
  // UNKNOWN_TOPIC_OR_PARTITION and the others OPERATION_NOT_ATTEMPTED; a request error
  // (INVALID_PRODUCER_ID_MAPPING, PRODUCER_FENCED, CONCURRENT_TRANSACTIONS, INVALID_TXN_STATE
  // beyond the partition bound) is given for every partition. The transaction becomes Ongoing.
  std::vector<protocol::ErrorCode> add_partitions(
      std::string_view transactional_id, std::int64_t producer_id, std::int16_t epoch,
      const std::vector<TransactionPartition>& partitions);

  // AddOffsetsToTxn: adds `group_id` to the ongoing transaction (INVALID_GROUP_ID if empty).
  protocol::ErrorCode add_offsets(std::string_view transactional_id, std::int64_t producer_id,
                                  std::int16_t epoch, std::string_view group_id);

  // TxnOffsetCommit: the producer must hold the id's current epoch and its transaction the
  // group (INVALID_PRODUCER_ID_MAPPING, INVALID_PRODUCER_EPOCH, INVALID_TXN_STATE). Then the
  // group fences the member (when one is named, v3+) and checks the metadata sizes; what
  // passes stays pending until EndTxn. Returns one error per offset, in order (the request's
  // error for each when it has one).
  std::vector<protocol::ErrorCode> commit_offsets(std::string_view transactional_id,
                                                  std::int64_t producer_id, std::int16_t epoch,
                                                  const OffsetCommitParams& params);

  // EndTxn: commits or aborts the ongoing transaction. A retry of the same completed outcome
  // is NONE; the other outcome, or no transaction, INVALID_TXN_STATE.
  protocol::ErrorCode end_transaction(std::string_view transactional_id, std::int64_t producer_id,
                                      std::int16_t epoch, bool commit);

  // Produce's check of a batch from a transactional producer (`producer_id` registered as
  // transactional) into a partition: a transactional batch needs the producer's ongoing
  // transaction to hold the partition; a plain one must not go into such a partition.
  [[nodiscard]] protocol::ErrorCode check_write(std::int64_t producer_id, std::string_view topic,
                                                std::int32_t partition, bool transactional) const;

  // OffsetFetch with require_stable: whether a transaction holds a pending commit of the
  // group's partition.
  [[nodiscard]] bool has_pending_offset(std::string_view group_id, std::string_view topic,
                                        std::int32_t partition) const;

  // Aborts, with the epoch bumped, every transaction open longer than its timeout. Returns
  // how many.
  std::size_t abort_expired();

  // The state of `transactional_id`, or nullopt if the coordinator does not hold it.
  [[nodiscard]] std::optional<TransactionState> state(std::string_view transactional_id) const;
  [[nodiscard]] std::size_t size() const { return transactions_.size(); }

 private:
  struct PendingOffset {
    std::string group_id;
    PartitionOffset offset;
  };
  struct Transaction {
    std::string transactional_id;
    std::int64_t producer_id = -1;
    std::int16_t epoch = 0;
    std::int64_t previous_producer_id = -1;  // before the last bump, for a retried init
    std::int16_t previous_epoch = -1;
    TransactionState state = TransactionState::kEmpty;
    std::int32_t timeout_ms = 60000;
    Clock::TimePoint started{};       // when it became Ongoing
    std::int64_t start_wall_ms = -1;  // the same on the wall clock, for the log (-1: not started)
    std::uint64_t last_used = 0;
    std::set<TransactionPartition> partitions;
    std::set<std::string, std::less<>> groups;
    std::vector<PendingOffset> pending_offsets;  // in commit order; later ones win
    // What partitions, groups and pending_offsets take (the *_entry_bytes estimates), held in
    // the groups' share of the memory (CoordinatorService) until the transaction ends.
    std::size_t held_bytes = 0;
  };

  Transaction* find(std::string_view transactional_id);
  // The request-level checks shared by AddPartitionsToTxn, AddOffsetsToTxn and EndTxn.
  protocol::ErrorCode check_producer(const Transaction* transaction, std::int64_t producer_id,
                                     std::int16_t epoch) const;
  // Holds `bytes` more for `transaction` in the groups' share of the memory; false (holding
  // nothing) when the share is full.
  bool hold(Transaction& transaction, std::size_t bytes);
  // Writes the markers, commits or drops the pending offsets, and leaves the transaction in
  // CompleteCommit or CompleteAbort with no partitions, groups or offsets (their bytes given
  // back).
  void complete(Transaction& transaction, bool commit);
  // Bumps the epoch (a new producer id when the epoch is exhausted), fencing the old producer.
  void bump_epoch(Transaction& transaction);
  // Forgets the least recently used id without an open transaction; false if there is none.
  bool forget_least_recently_used();
  // Makes the transaction Ongoing (its timeout starts) if it is not yet.
  void start(Transaction& transaction);
  // Appends the transaction's state to the log as Kafka's record (nothing without a log).
  void log_state(const Transaction& transaction);
  // Appends a tombstone of `transactional_id` to the log.
  void log_tombstone(std::string_view transactional_id);
  void append_to_log(std::string_view transactional_id, const std::vector<std::uint8_t>* value);
  // Forgets `transaction` (its bytes given back, its producer id unmapped; with
  // `expire_producer`, expired from the registry too).
  void erase(std::map<std::string, Transaction, std::less<>>::iterator transaction,
             bool expire_producer);
  // The loaded record `value` as the state of `transaction`.
  void restore(Transaction& transaction, const protocol::TransactionLogValue& value);

  TransactionLimits limits_;
  const Clock& clock_;
  Cluster& cluster_;
  ProducerRegistry& producers_;
  AppendNotifier& notifier_;
  CoordinatorService& groups_;
  std::map<std::string, Transaction, std::less<>> transactions_;
  std::unordered_map<std::int64_t, Transaction*> by_producer_id_;
  std::uint64_t use_counter_ = 0;
  CoordinatorTopic* log_ = nullptr;
  LogThrottle refused_log_;  // a line a second at most about requests that do not fit
};

}  // namespace kgroups::broker
