// SPDX-License-Identifier: Apache-2.0
#include "broker/transactions/transaction_coordinator.h"

#include <algorithm>
#include <limits>

#include "broker/runtime/logger.h"
#include "broker/transactions/transaction_marker.h"

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

}  // namespace

std::string_view transaction_state_name(TransactionState state) {
  switch (state) {
    case TransactionState::kEmpty:
      return "Empty";
    case TransactionState::kOngoing:
      return "Ongoing";
    case TransactionState::kPrepareCommit:
      return "PrepareCommit";
    case TransactionState::kPrepareAbort:
      return "PrepareAbort";
    case TransactionState::kCompleteCommit:
      return "CompleteCommit";
    case TransactionState::kCompleteAbort:
      return "CompleteAbort";
  }
  return "Unknown";
}

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
  } else if (transaction->state == TransactionState::kOngoing) {
    bump_epoch(*transaction);  // fences the previous producer
    complete(*transaction, /*commit=*/false);
  } else {
    bump_epoch(*transaction);
  }
  transaction->state = TransactionState::kEmpty;
  transaction->timeout_ms = timeout_ms;
  transaction->last_used = ++use_counter_;
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
  if (transaction->state != TransactionState::kOngoing) {
    transaction->state = TransactionState::kOngoing;
    transaction->started = clock_.now();
  }
  transaction->last_used = ++use_counter_;
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
  if (!transaction->groups.contains(group_id)) {
    if (transaction->groups.size() >= limits_.max_partitions_per_transaction) {
      return ErrorCode::kInvalidTxnState;
    }
    if (!hold(*transaction, group_entry_bytes(group_id))) {
      return ErrorCode::kCoordinatorLoadInProgress;
    }
    transaction->groups.emplace(group_id);
  }
  if (transaction->state != TransactionState::kOngoing) {
    transaction->state = TransactionState::kOngoing;
    transaction->started = clock_.now();
  }
  transaction->last_used = ++use_counter_;
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
      return ErrorCode::kInvalidTxnState;
    case TransactionState::kPrepareCommit:
    case TransactionState::kPrepareAbort:
      return ErrorCode::kConcurrentTransactions;
  }
  return ErrorCode::kInvalidTxnState;
}

void TransactionCoordinator::complete(Transaction& transaction, bool commit) {
  transaction.state = commit ? TransactionState::kPrepareCommit : TransactionState::kPrepareAbort;
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
    by_producer_id_.erase(transaction.producer_id);
    producers_.expire(transaction.producer_id);
    transaction.producer_id = producers_.issue(/*transactional=*/true);
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
  by_producer_id_.erase(oldest->second.producer_id);
  producers_.expire(oldest->second.producer_id);
  transactions_.erase(oldest);
  return true;
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

}  // namespace kgroups::broker
