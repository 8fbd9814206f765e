// SPDX-License-Identifier: Apache-2.0
//
// ProducerWrites: how Produce stores a batch that carries a producer id (an idempotent or
// transactional producer), after Kafka's UnifiedLog.analyzeAndValidateProducerState:
// - the id must be one this broker issued and still holds (UNKNOWN_PRODUCER_ID otherwise);
//   an idempotent producer's id issued before a restart is registered again at its first
//   write;
// - the epoch: a transactional producer's must be its current one, an idempotent producer's
//   at least the one issued (clients bump it themselves, KIP-360); else INVALID_PRODUCER_EPOCH;
// - the transactional bit only from a transactional producer whose ongoing transaction holds
//   the partition, and a transactional producer's batch into a partition of its ongoing
//   transaction must have the bit (INVALID_TXN_STATE otherwise);
// - then the partition's ProducerStateTable: a duplicate of one of the producer's last 5
//   batches is not stored again and is answered with the offset it got; out-of-order
//   sequences and older epochs are refused.
// The plain path (producer id -1) never comes here.
// Not thread-safe: the broker's network thread owns it.
#pragma once

#include <cstdint>
#include <string>

#include "broker/storage/cluster.h"
#include "broker/storage/producer_registry.h"
#include "protocol/error_code.h"
#include "protocol/record_validator.h"

namespace kgroups::broker {

class TransactionCoordinator;

class ProducerWrites {
 public:
  // All references must outlive this. `transactions` may be set later (set_transactions).
  ProducerWrites(Cluster& cluster, ProducerRegistry& producers);

  void set_transactions(TransactionCoordinator* transactions) { transactions_ = transactions; }

  // Stores `batch` (validated, producer id >= 0) in `topic`'s partition `partition` (which
  // exists), or finds it was stored before. Returns kNone and the batch's base offset in
  // `base_offset` (the original one for a duplicate), or the error and, in `reason`, why;
  // nothing is stored then.
  protocol::ErrorCode store(StoredTopic& topic, std::int32_t partition,
                            const protocol::ValidatedBatch& batch, std::int64_t& base_offset,
                            std::string& reason);

  ProducerRegistry& registry() { return producers_; }

 private:
  Cluster& cluster_;
  ProducerRegistry& producers_;
  TransactionCoordinator* transactions_ = nullptr;
};

}  // namespace kgroups::broker
