// SPDX-License-Identifier: Apache-2.0
//
// read_transaction_log(): what one partition of __transaction_state says, as Kafka's
// transaction coordinator reads it when it becomes the partition's leader: the records are
// replayed in offset order and each transactional id keeps its newest record; a tombstone
// forgets the id. Records whose key or value does not decode are skipped and counted.
// TransactionCoordinator::load_partition() then rebuilds the ids from the result.
// Not thread-safe: runs on the broker's thread with the log.
#pragma once

#include <cstddef>

#include "broker/storage/batch_log.h"
#include "broker/transactions/transaction_coordinator.h"

namespace kgroups::broker {

struct TransactionLogRead {
  LoadedTransactions transactions;  // each id's newest record, tombstoned ids left out
  std::size_t records = 0;          // records replayed, tombstones included
  std::size_t skipped = 0;          // records or batches that could not be read
};

TransactionLogRead read_transaction_log(const BatchLog& log);

}  // namespace kgroups::broker
