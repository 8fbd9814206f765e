// SPDX-License-Identifier: Apache-2.0
#include "broker/transactions/transaction_coordinator.h"

#include <algorithm>
#include <iterator>
#include <limits>

#include "broker/runtime/logger.h"
#include "broker/transactions/transaction_marker.h"
#include "protocol/coordinator_records/transaction_log_key.h"

namespace kgroups::broker {

using protocol::ErrorCode;

namespace {

std::int64_t wall_clock_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// `count` copies of `error`: one per partition or offset of a request refused as a whole.
std::vector<ErrorCode> repeated(std::size_t count, ErrorCode error) {
  std::vector<ErrorCode> errors(count, error);
  return errors;
}

ErrorCode to_error_code(GroupError error) {
  return static_cast<ErrorCode>(static_cast<std::int16_t>(error));
}

// What one entry of a transaction takes: its strings at their size plus the tree node or
// vector slot, the string headers and allocation overheads (64-bit libstdc++ and glibc).
constexpr std::size_t kEntryOverheadBytes = 96;
std::size_t partition_entry_bytes(const TransactionPartition& partition) {
  return kEntryOverheadBytes + partition.topic.size();
}
std::size_t group_entry_bytes(std::string_view group_id) {
  return kEntryOverheadBytes + group_id.size();
}
std::size_t pending_offset_bytes(std::string_view group_id, const PartitionOffset& offset) {
  return 2 * kEntryOverheadBytes + group_id.size() + offset.topic_partition.topic.size() +
         offset.committed.metadata.size();
}

// The state a loaded record leaves: a fence Kafka was preparing ends as an abort; Dead is never
// loaded (load_partition() forgets such an id).
TransactionState loaded_state(TransactionState state) {
  return state == TransactionState::kPrepareEpochFence ? TransactionState::kPrepareAbort : state;
}

}  // namespace

TransactionCoordinator::TransactionCoordinator(TransactionLimits limits, const Clock& clock,
                                               Cluster& cluster, ProducerRegistry& producers,
                                               AppendNotifier& notifier, CoordinatorService& groups)
    : limits_(limits),
      clock_(clock),
      cluster_(cluster),
      producers_(producers),
      notifier_(notifier),
      groups_(groups) {}

TransactionCoordinator::Transaction* TransactionCoordinator::find(
    std::string_view transactional_id) {
  const auto found = transactions_.find(transactional_id);
  return found == transactions_.end() ? nullptr : &found->second;
}

std::optional<TransactionState> TransactionCoordinator::state(
    std::string_view transactional_id) const {
  const auto found = transactions_.find(transactional_id);
  if (found == transactions_.end()) return std::nullopt;
  return found->second.state;
}

InitProducerIdResult TransactionCoordinator::init_producer_id(std::string_view transactional_id,
                                                              std::int32_t timeout_ms,
                                                              std::int64_t expected_producer_id,
                                                              std::int16_t expected_epoch) {
  if (transactional_id.empty() || transactional_id.size() > limits_.max_id_length) {
    return {.error = ErrorCode::kInvalidRequest};
  }
  if (timeout_ms <= 0 || timeout_ms > limits_.max_timeout_ms) {
    return {.error = ErrorCode::kInvalidTransactionTimeout};
  }
  Transaction* transaction = find(transactional_id);
  bool retried = false;
  // A new id (a new transactional id, or an epoch that would overflow) needs the next block
  // of ids saved (--log-dirs); until it can be, retriable, as Kafka without a block.
  const bool needs_new_id =
      transaction == nullptr || transaction->epoch >= std::numeric_limits<std::int16_t>::max() - 1;
  if (needs_new_id && !producers_.ready_to_issue()) {
    return {.error = ErrorCode::kCoordinatorLoadInProgress};
  }
  if (transaction == nullptr) {
    if (transactions_.size() >= limits_.max_transactional_ids && !forget_least_recently_used()) {
      return {.error = ErrorCode::kCoordinatorLoadInProgress};
    }
    transaction = &transactions_[std::string(transactional_id)];
    transaction->transactional_id = std::string(transactional_id);
    transaction->producer_id = producers_.issue(/*transactional=*/true);
    transaction->epoch = 0;
    by_producer_id_[transaction->producer_id] = transaction;
  } else if (expected_producer_id >= 0 && (expected_producer_id != transaction->producer_id ||
                                           expected_epoch != transaction->epoch)) {
    if (expected_producer_id != transaction->previous_producer_id ||
        expected_epoch != transaction->previous_epoch) {
      return {.error = ErrorCode::kProducerFenced};
    }
    // A retry of the init that made the current epoch: answered again, unchanged.
    retried = true;
  } else if (transaction->state == TransactionState::kOngoing) {
    bump_epoch(*transaction);  // fences the previous producer
    complete(*transaction, /*commit=*/false);
  } else {
    bump_epoch(*transaction);
  }
  transaction->state = TransactionState::kEmpty;
  transaction->timeout_ms = timeout_ms;
  transaction->start_wall_ms = -1;
  transaction->last_used = ++use_counter_;
  if (!retried) log_state(*transaction);
  return {.producer_id = transaction->producer_id, .producer_epoch = transaction->epoch};
}

ErrorCode TransactionCoordinator::check_producer(const Transaction* transaction,
                                                 std::int64_t producer_id,
                                                 std::int16_t epoch) const {
  if (transaction == nullptr || transaction->producer_id != producer_id) {
    return ErrorCode::kInvalidProducerIdMapping;
  }
  if (transaction->epoch != epoch) return ErrorCode::kProducerFenced;
  if (transaction->state == TransactionState::kPrepareCommit ||
      transaction->state == TransactionState::kPrepareAbort) {
    return ErrorCode::kConcurrentTransactions;
  }
  return ErrorCode::kNone;
}

std::vector<ErrorCode> TransactionCoordinator::add_partitions(
    std::string_view transactional_id, std::int64_t producer_id, std::int16_t epoch,
    const std::vector<TransactionPartition>& partitions) {
  Transaction* transaction = find(transactional_id);
  if (const ErrorCode error = check_producer(transaction, producer_id, epoch);
      error != ErrorCode::kNone) {
    return repeated(partitions.size(), error);
  }
  std::vector<ErrorCode> errors(partitions.size(), ErrorCode::kNone);
  bool unknown = false;
  std::vector<const TransactionPartition*> fresh;  // not in the transaction yet
  for (std::size_t i = 0; i < partitions.size(); ++i) {
    if (cluster_.find_partition(partitions[i].topic, partitions[i].partition) == nullptr) {
      errors[i] = ErrorCode::kUnknownTopicOrPartition;
      unknown = true;
    } else if (!transaction->partitions.contains(partitions[i])) {
      fresh.push_back(&partitions[i]);
    }
  }
  const std::size_t added = fresh.size();
  if (unknown) {
    for (ErrorCode& error : errors) {
      if (error == ErrorCode::kNone) error = ErrorCode::kOperationNotAttempted;
    }
    return errors;
  }
  if (transaction->partitions.size() + added > limits_.max_partitions_per_transaction) {
    return repeated(partitions.size(), ErrorCode::kInvalidTxnState);
  }
  // A partition named twice is stored once: sort, then count each distinct one.
  std::sort(fresh.begin(), fresh.end(),
            [](const TransactionPartition* a, const TransactionPartition* b) { return *a < *b; });
  std::size_t growth = 0;
  for (std::size_t i = 0; i < fresh.size(); ++i) {
    if (i == 0 || *fresh[i - 1] != *fresh[i]) growth += partition_entry_bytes(*fresh[i]);
  }
  if (!hold(*transaction, growth)) {
    return repeated(partitions.size(), ErrorCode::kCoordinatorLoadInProgress);
  }
  transaction->partitions.insert(partitions.begin(), partitions.end());
  const bool starts = transaction->state != TransactionState::kOngoing;
  start(*transaction);
  transaction->last_used = ++use_counter_;
  if (starts || added > 0) log_state(*transaction);
  return errors;
}

ErrorCode TransactionCoordinator::add_offsets(std::string_view transactional_id,
                                              std::int64_t producer_id, std::int16_t epoch,
                                              std::string_view group_id) {
  Transaction* transaction = find(transactional_id);
  if (const ErrorCode error = check_producer(transaction, producer_id, epoch);
      error != ErrorCode::kNone) {
    return error;
  }
  if (group_id.empty() || group_id.size() > limits_.max_id_length) {
    return ErrorCode::kInvalidGroupId;
  }
  const bool new_group = !transaction->groups.contains(group_id);
  if (new_group) {
    if (transaction->groups.size() >= limits_.max_partitions_per_transaction) {
      return ErrorCode::kInvalidTxnState;
    }
    if (!hold(*transaction, group_entry_bytes(group_id))) {
      return ErrorCode::kCoordinatorLoadInProgress;
    }
    transaction->groups.emplace(group_id);
  }
  const bool starts = transaction->state != TransactionState::kOngoing;
  start(*transaction);
  transaction->last_used = ++use_counter_;
  if (starts || new_group) log_state(*transaction);
  return ErrorCode::kNone;
}

std::vector<ErrorCode> TransactionCoordinator::commit_offsets(std::string_view transactional_id,
                                                              std::int64_t producer_id,
                                                              std::int16_t epoch,
                                                              const OffsetCommitParams& params) {
  const auto fail = [&](ErrorCode error) { return repeated(params.offsets.size(), error); };
  Transaction* transaction = find(transactional_id);
  if (transaction == nullptr || transaction->producer_id != producer_id) {
    return fail(ErrorCode::kInvalidProducerIdMapping);
  }
  if (transaction->epoch != epoch) return fail(ErrorCode::kInvalidProducerEpoch);
  if (transaction->state != TransactionState::kOngoing ||
      !transaction->groups.contains(params.group_id)) {
    return fail(ErrorCode::kInvalidTxnState);
  }
  if (transaction->pending_offsets.size() + params.offsets.size() >
      limits_.max_partitions_per_transaction) {
    return fail(ErrorCode::kInvalidTxnState);
  }
  OffsetCommitParams check = params;
  check.validate_only = true;
  // Kafka fences a transactional commit only when it names the member (v3+).
  check.unfenced =
      params.generation_id < 0 && params.member_id.empty() && !params.group_instance_id.has_value();
  const OffsetCommitResult result = groups_.commit_offsets(check);
  const auto error_of = [&result](std::size_t i) {
    return i < result.partition_errors.size() ? result.partition_errors[i] : result.error;
  };
  std::size_t growth = 0;
  for (std::size_t i = 0; i < params.offsets.size(); ++i) {
    if (error_of(i) == GroupError::kNone) {
      growth += pending_offset_bytes(params.group_id, params.offsets[i]);
    }
  }
  if (!hold(*transaction, growth)) return fail(ErrorCode::kCoordinatorLoadInProgress);
  std::vector<ErrorCode> errors;
  errors.reserve(params.offsets.size());
  for (std::size_t i = 0; i < params.offsets.size(); ++i) {
    errors.push_back(to_error_code(error_of(i)));
    if (error_of(i) == GroupError::kNone) {
      transaction->pending_offsets.push_back({params.group_id, params.offsets[i]});
    }
  }
  transaction->last_used = ++use_counter_;
  return errors;
}

ErrorCode TransactionCoordinator::end_transaction(std::string_view transactional_id,
                                                  std::int64_t producer_id, std::int16_t epoch,
                                                  bool commit) {
  Transaction* transaction = find(transactional_id);
  if (const ErrorCode error = check_producer(transaction, producer_id, epoch);
      error != ErrorCode::kNone) {
    return error;
  }
  transaction->last_used = ++use_counter_;
  switch (transaction->state) {
    case TransactionState::kOngoing:
      complete(*transaction, commit);
      return ErrorCode::kNone;
    case TransactionState::kCompleteCommit:
      return commit ? ErrorCode::kNone : ErrorCode::kInvalidTxnState;
    case TransactionState::kCompleteAbort:
      return commit ? ErrorCode::kInvalidTxnState : ErrorCode::kNone;
    case TransactionState::kEmpty:
    case TransactionState::kDead:  // never held: a loaded Dead id is forgotten
      return ErrorCode::kInvalidTxnState;
    case TransactionState::kPrepareCommit:
    case TransactionState::kPrepareAbort:
    case TransactionState::kPrepareEpochFence:  // never held: loaded as PrepareAbort
      return ErrorCode::kConcurrentTransactions;
  }
  return ErrorCode::kInvalidTxnState;
}

void TransactionCoordinator::complete(Transaction& transaction, bool commit) {
  transaction.state = commit ? TransactionState::kPrepareCommit : TransactionState::kPrepareAbort;
  log_state(transaction);
  const std::int64_t now_ms = wall_clock_ms();
  const std::vector<std::uint8_t> marker =
      transaction_marker(transaction.producer_id, transaction.epoch, commit, now_ms);
  std::size_t unwritten = 0;
  for (const TransactionPartition& partition : transaction.partitions) {
    StoredTopic* topic = cluster_.find_topic(partition.topic);
    if (topic == nullptr || partition.partition < 0 ||
        static_cast<std::size_t>(partition.partition) >= topic->partitions.size()) {
      continue;  // the topic is gone: nothing of the transaction is left to end
    }
    const auto offset = cluster_.append(*topic, partition.partition, marker, 0, now_ms);
    if (!offset) {
      ++unwritten;
      continue;
    }
    BatchLog& log = topic->partitions[static_cast<std::size_t>(partition.partition)];
    log.transactions().on_marker(transaction.producer_id, *offset, commit);
    notifier_.notify(log);
  }
  if (unwritten > 0) {
    log_warn("transaction " + quote(transaction.transactional_id) + ": no room for the " +
             (commit ? "commit" : "abort") + " marker in " + std::to_string(unwritten) +
             " partition(s)");
  }
  if (commit) {
    std::map<std::string_view, std::vector<PartitionOffset>> by_group;
    for (const PendingOffset& pending : transaction.pending_offsets) {
      by_group[pending.group_id].push_back(pending.offset);
    }
    for (auto& [group_id, offsets] : by_group) {
      OffsetCommitParams params;
      params.group_id = std::string(group_id);
      params.offsets = std::move(offsets);
      params.unfenced = true;
      const OffsetCommitResult result = groups_.commit_offsets(params);
      if (result.error != GroupError::kNone) {
        log_warn("transaction " + quote(transaction.transactional_id) + ": offsets of group " +
                 quote(group_id) +
                 " not stored: " + std::string(protocol::error_name(to_error_code(result.error))));
      }
    }
  }
  transaction.partitions.clear();
  transaction.groups.clear();
  transaction.pending_offsets.clear();
  groups_.release_bytes(transaction.held_bytes);
  transaction.held_bytes = 0;
  transaction.state = commit ? TransactionState::kCompleteCommit : TransactionState::kCompleteAbort;
  log_state(transaction);
}

bool TransactionCoordinator::hold(Transaction& transaction, std::size_t bytes) {
  if (bytes == 0) return true;
  if (!groups_.try_hold_bytes(bytes)) {
    if (const auto left_out = refused_log_.admit(LogThrottle::Clock::now())) {
      log_info("transaction " + quote(transaction.transactional_id) + ": " + std::to_string(bytes) +
               " bytes more do not fit in the groups' share of --max-memory; answered "
               "COORDINATOR_LOAD_IN_PROGRESS" +
               (*left_out == 0 ? std::string()
                               : " (and " + std::to_string(*left_out) +
                                     " more requests since the last such line)"));
    }
    return false;
  }
  transaction.held_bytes += bytes;
  return true;
}

void TransactionCoordinator::bump_epoch(Transaction& transaction) {
  transaction.previous_producer_id = transaction.producer_id;
  transaction.previous_epoch = transaction.epoch;
  if (transaction.epoch >= std::numeric_limits<std::int16_t>::max() - 1) {
    const std::int64_t next_id = producers_.issue(/*transactional=*/true);
    if (next_id < 0) {
      // Only when the next block of ids cannot be saved (--log-dirs, disk full) while a
      // timed-out transaction's epoch overflows: the producer keeps its last epoch.
      log_error("transactional id " + quote(transaction.transactional_id) +
                ": no new producer id for its epoch overflow (ids cannot be saved)");
      return;
    }
    by_producer_id_.erase(transaction.producer_id);
    producers_.expire(transaction.producer_id);
    transaction.producer_id = next_id;
    transaction.epoch = 0;
    by_producer_id_[transaction.producer_id] = &transaction;
  } else {
    ++transaction.epoch;
  }
  if (RegisteredProducer* producer = producers_.find(transaction.producer_id)) {
    producer->epoch = transaction.epoch;
  }
}

bool TransactionCoordinator::forget_least_recently_used() {
  auto oldest = transactions_.end();
  for (auto it = transactions_.begin(); it != transactions_.end(); ++it) {
    if (it->second.state == TransactionState::kOngoing) continue;
    if (oldest == transactions_.end() || it->second.last_used < oldest->second.last_used) {
      oldest = it;
    }
  }
  if (oldest == transactions_.end()) return false;
  log_tombstone(oldest->first);  // Kafka's expiry of a transactional id
  erase(oldest, /*expire_producer=*/true);
  return true;
}

void TransactionCoordinator::erase(std::map<std::string, Transaction, std::less<>>::iterator found,
                                   bool expire_producer) {
  Transaction& transaction = found->second;
  groups_.release_bytes(transaction.held_bytes);
  by_producer_id_.erase(transaction.producer_id);
  if (expire_producer) producers_.expire(transaction.producer_id);
  transactions_.erase(found);
}

void TransactionCoordinator::start(Transaction& transaction) {
  if (transaction.state == TransactionState::kOngoing) return;
  transaction.state = TransactionState::kOngoing;
  transaction.started = clock_.now();
  transaction.start_wall_ms = wall_clock_ms();
}

ErrorCode TransactionCoordinator::check_write(std::int64_t producer_id, std::string_view topic,
                                              std::int32_t partition, bool transactional) const {
  const auto found = by_producer_id_.find(producer_id);
  if (found == by_producer_id_.end()) {
    return transactional ? ErrorCode::kInvalidTxnState : ErrorCode::kNone;
  }
  const Transaction& transaction = *found->second;
  const bool in_transaction =
      transaction.state == TransactionState::kOngoing &&
      transaction.partitions.contains(TransactionPartition{std::string(topic), partition});
  return in_transaction == transactional ? ErrorCode::kNone : ErrorCode::kInvalidTxnState;
}

bool TransactionCoordinator::has_pending_offset(std::string_view group_id, std::string_view topic,
                                                std::int32_t partition) const {
  for (const auto& [id, transaction] : transactions_) {
    for (const PendingOffset& pending : transaction.pending_offsets) {
      if (pending.group_id == group_id && pending.offset.topic_partition.topic == topic &&
          pending.offset.topic_partition.partition == partition) {
        return true;
      }
    }
  }
  return false;
}

std::size_t TransactionCoordinator::abort_expired() {
  const Clock::TimePoint now = clock_.now();
  std::size_t aborted = 0;
  for (auto& [id, transaction] : transactions_) {
    if (transaction.state != TransactionState::kOngoing) continue;
    if (now - transaction.started <= std::chrono::milliseconds(transaction.timeout_ms)) continue;
    bump_epoch(transaction);
    complete(transaction, /*commit=*/false);
    log_info("transaction " + quote(id) + " aborted: open longer than its timeout of " +
             std::to_string(transaction.timeout_ms) + " ms; producer fenced (epoch " +
             std::to_string(transaction.epoch) + ")");
    ++aborted;
  }
  return aborted;
}

void TransactionCoordinator::log_state(const Transaction& transaction) {
  if (log_ == nullptr) return;
  protocol::TransactionLogValue value;
  value.producer_id = transaction.producer_id;
  value.producer_epoch = transaction.epoch;
  value.timeout_ms = transaction.timeout_ms;
  value.state = transaction.state;
  value.last_update_timestamp_ms = wall_clock_ms();
  value.start_timestamp_ms = transaction.start_wall_ms;
  if (transaction.state != TransactionState::kEmpty) {
    // Kafka lists a group of the transaction as its partition of __consumer_offsets.
    std::map<std::string_view, std::set<std::int32_t>> by_topic;
    for (const TransactionPartition& partition : transaction.partitions) {
      by_topic[partition.topic].insert(partition.partition);
    }
    if (const CoordinatorTopic* offsets = groups_.offsets_topic(); offsets != nullptr) {
      for (const std::string& group_id : transaction.groups) {
        by_topic[offsets->name()].insert(offsets->partition_for(group_id));
      }
    }
    auto& topics = value.partitions.emplace();
    for (const auto& [topic, ids] : by_topic) {
      topics.push_back({std::string(topic), std::vector<std::int32_t>(ids.begin(), ids.end())});
    }
  }
  const std::vector<std::uint8_t> encoded = value.encode();
  append_to_log(transaction.transactional_id, &encoded);
}

void TransactionCoordinator::log_tombstone(std::string_view transactional_id) {
  if (log_ != nullptr) append_to_log(transactional_id, nullptr);
}

void TransactionCoordinator::append_to_log(std::string_view transactional_id,
                                           const std::vector<std::uint8_t>* value) {
  CoordinatorTopicRecord record{.key = protocol::TransactionLogKey::encode(transactional_id),
                                .value = std::nullopt};
  if (value != nullptr) record.value = *value;
  const std::int32_t partition = log_->partition_for(transactional_id);
  const ErrorCode error = log_->append(partition, {record}, wall_clock_ms());
  if (error != ErrorCode::kNone) {
    log_warn("transaction " + quote(transactional_id) + ": its record was not written to " +
             std::string(log_->name()) + "-" + std::to_string(partition) + " (" +
             std::string(protocol::error_name(error)) + "); kept in memory only");
  }
}

TransactionLoadResult TransactionCoordinator::load_partition(std::int32_t partition,
                                                             const LoadedTransactions& loaded) {
  TransactionLoadResult result;
  if (log_ == nullptr) return result;
  for (auto it = transactions_.begin(); it != transactions_.end();) {
    const auto next = std::next(it);
    if (log_->partition_for(it->first) == partition && !loaded.contains(it->first)) {
      erase(it, /*expire_producer=*/true);
      ++result.dropped;
    }
    it = next;
  }
  for (const auto& [id, value] : loaded) {
    if (log_->partition_for(id) != partition) continue;
    if (value.state == TransactionState::kDead) {
      if (const auto found = transactions_.find(id); found != transactions_.end()) {
        erase(found, /*expire_producer=*/true);
      }
      continue;
    }
    Transaction& transaction = transactions_[id];
    transaction.transactional_id = id;
    restore(transaction, value);
    ++result.ids;
    if (transaction.state == TransactionState::kPrepareCommit ||
        transaction.state == TransactionState::kPrepareAbort) {
      complete(transaction, transaction.state == TransactionState::kPrepareCommit);
      ++result.completed;
    }
  }
  return result;
}

void TransactionCoordinator::restore(Transaction& transaction,
                                     const protocol::TransactionLogValue& value) {
  const TransactionState state = loaded_state(value.state);
  const bool known = transaction.producer_id >= 0 && transaction.producer_id == value.producer_id &&
                     transaction.epoch == value.producer_epoch && transaction.state == state;
  if (!known) {
    // Memory holds another transaction than the log: the log's stands, without groups or
    // pending offsets (the log does not hold them).
    groups_.release_bytes(transaction.held_bytes);
    transaction.held_bytes = 0;
    transaction.groups.clear();
    transaction.pending_offsets.clear();
    transaction.previous_producer_id = -1;
    transaction.previous_epoch = -1;
    if (transaction.producer_id >= 0 && transaction.producer_id != value.producer_id) {
      by_producer_id_.erase(transaction.producer_id);
      producers_.expire(transaction.producer_id);
    }
  }
  transaction.producer_id = value.producer_id;
  transaction.epoch = value.producer_epoch;
  transaction.timeout_ms = value.timeout_ms;
  transaction.state = state;
  std::set<TransactionPartition> partitions;
  if (value.partitions && state != TransactionState::kEmpty) {
    for (const protocol::TransactionLogTopic& topic : *value.partitions) {
      if (topic.topic == kOffsetsTopicName) continue;  // the groups, kept from memory
      for (const std::int32_t id : topic.partitions) partitions.insert({topic.topic, id});
    }
  }
  if (!known) {
    std::size_t bytes = 0;
    for (const TransactionPartition& partition : partitions) {
      bytes += partition_entry_bytes(partition);
    }
    (void)hold(transaction, bytes);  // bounded by the partitions a transaction may hold
  }
  transaction.partitions = std::move(partitions);
  transaction.start_wall_ms = value.start_timestamp_ms;
  const std::int64_t open_ms =
      value.start_timestamp_ms < 0
          ? 0
          : std::max<std::int64_t>(0, wall_clock_ms() - value.start_timestamp_ms);
  transaction.started = clock_.now() - std::chrono::milliseconds(open_ms);
  transaction.last_used = ++use_counter_;
  by_producer_id_[transaction.producer_id] = &transaction;
  producers_.adopt_transactional(transaction.producer_id, transaction.epoch);
}

}  // namespace kgroups::broker
