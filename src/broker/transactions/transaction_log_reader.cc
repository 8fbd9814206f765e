// SPDX-License-Identifier: Apache-2.0
#include "broker/transactions/transaction_log_reader.h"

#include <string>
#include <utility>

#include "broker/groups/coordinator_log_replay.h"
#include "protocol/coordinator_records/transaction_log_key.h"
#include "protocol/coordinator_records/transaction_log_value.h"

namespace kgroups::broker {
namespace {

// Applies one record: the id's newest state, or its removal; false if it cannot be read.
bool replay(const protocol::BatchRecord& record, LoadedTransactions& loaded) {
  if (!record.key) return false;
  auto id = protocol::TransactionLogKey::decode(*record.key);
  if (!id) return false;
  if (!record.value) {
    loaded.erase(*id);
    return true;
  }
  auto value = protocol::TransactionLogValue::decode(*record.value);
  if (!value) return false;
  loaded.insert_or_assign(std::move(*id), std::move(*value));
  return true;
}

}  // namespace

TransactionLogRead read_transaction_log(const BatchLog& log) {
  TransactionLogRead result;
  const CoordinatorLogReplay replayed =
      replay_coordinator_log(log, [&result](const protocol::BatchRecord& record) {
        return replay(record, result.transactions);
      });
  result.records = replayed.records;
  result.skipped = replayed.skipped;
  return result;
}

}  // namespace kgroups::broker
