// SPDX-License-Identifier: Apache-2.0
#include "broker/transactions/producer_writes.h"

#include "broker/transactions/transaction_coordinator.h"

namespace kgroups::broker {

using protocol::ErrorCode;

ProducerWrites::ProducerWrites(Cluster& cluster, ProducerRegistry& producers)
    : cluster_(cluster), producers_(producers) {}

ErrorCode ProducerWrites::store(StoredTopic& topic, std::int32_t partition,
                                const protocol::ValidatedBatch& batch, std::int64_t& base_offset,
                                std::string& reason) {
  const protocol::RecordBatchHeader& header = batch.header;
  RegisteredProducer* producer = producers_.find(header.producer_id);
  if (producer == nullptr && !header.is_transactional() &&
      producers_.issued_before_restart(header.producer_id)) {
    // Issued before a restart to a producer that had not written yet (or whose batches were
    // all deleted): it is registered again, as it was.
    producers_.adopt_idempotent(header.producer_id, header.producer_epoch);
    producer = producers_.find(header.producer_id);
  }
  if (producer == nullptr) {
    reason = "producer id " + std::to_string(header.producer_id) +
             " was not issued by this broker or has expired";
    return ErrorCode::kUnknownProducerId;
  }
  const bool stale_epoch = producer->transactional ? header.producer_epoch != producer->epoch
                                                   : header.producer_epoch < producer->epoch;
  if (stale_epoch) {
    reason = "producer epoch " + std::to_string(header.producer_epoch) + ", current " +
             std::to_string(producer->epoch);
    return ErrorCode::kInvalidProducerEpoch;
  }
  if (header.is_transactional() && !producer->transactional) {
    reason = "transactional batch from a producer without a transactional id";
    return ErrorCode::kInvalidTxnState;
  }
  if (producer->transactional && transactions_ != nullptr) {
    const ErrorCode error = transactions_->check_write(header.producer_id, topic.name, partition,
                                                       header.is_transactional());
    if (error != ErrorCode::kNone) {
      reason = header.is_transactional()
                   ? "transactional batch into a partition not added to the transaction"
                   : "plain batch into a partition of the producer's ongoing transaction";
      return error;
    }
  }
  BatchLog& log = topic.partitions[static_cast<std::size_t>(partition)];
  ProducerStateTable& state = log.producers();
  const std::int32_t last_sequence =
      ProducerStateTable::last_sequence(header.base_sequence, header.record_count);
  const SequenceCheck check =
      state.check(header.producer_id, header.producer_epoch, header.base_sequence, last_sequence);
  if (check.error != ErrorCode::kNone) {
    reason = check.error == ErrorCode::kInvalidProducerEpoch
                 ? "producer epoch older than this partition has seen"
                 : "sequence " + std::to_string(header.base_sequence) + " is not the next one";
    return check.error;
  }
  producers_.touch(*producer);
  if (check.duplicate_base_offset >= 0) {
    base_offset = check.duplicate_base_offset;
    return ErrorCode::kNone;
  }
  if (!state.contains(header.producer_id) &&
      !producers_.make_room_for_partition_state(header.producer_id)) {
    reason = "producer state of all partitions is full (--max-producer-states)";
    return ErrorCode::kKafkaStorageError;
  }
  const auto stored =
      cluster_.append(topic, partition, batch.bytes, header.last_offset_delta, batch.max_timestamp);
  if (!stored) return stored.error();
  base_offset = *stored;
  if (header.is_transactional()) {
    log.transactions().on_transactional_append(header.producer_id, base_offset);
  }
  if (state.record(header.producer_id, header.producer_epoch, header.base_sequence, last_sequence,
                   base_offset)) {
    producers_.added_partition_state(header.producer_id, state);
  }
  return ErrorCode::kNone;
}

}  // namespace kgroups::broker
