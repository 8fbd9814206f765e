// SPDX-License-Identifier: Apache-2.0
//
// TransactionLogValue: the value of a record of __transaction_state, one transactional id's
// state as its coordinator last wrote it, in Kafka's versions 0-1. It opens with its int16
// version; then producer id (int64), producer epoch (int16), transaction timeout in ms
// (int32), state (int8, Kafka's TransactionState ids), the partitions of the transaction (a
// nullable array of topic and partition ids; null in state Empty), the last update and the
// start timestamps (int64 ms). v1 is the same, flexible (compact strings and arrays, tagged
// fields: 0 previous producer id, 1 next producer id, 2 client transaction version).
// The broker writes kWrittenVersion (0), what Kafka 3.x writes and 4.x writes without
// transaction version 2 (KIP-890 part 2, which kgroupsd does not serve). Thread-safe: plain
// values and pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/result.h"

namespace kgroups::protocol {

// Kafka's TransactionState ids, as the value's state field holds them.
enum class TransactionLogState : std::int8_t {
  kEmpty = 0,
  kOngoing = 1,
  kPrepareCommit = 2,
  kPrepareAbort = 3,
  kCompleteCommit = 4,
  kCompleteAbort = 5,
  kDead = 6,
  kPrepareEpochFence = 7,
};

// Kafka's name of the state ("Empty", "Ongoing", ...), or "Unknown".
std::string_view transaction_log_state_name(TransactionLogState state);

// One topic's partitions in a transaction.
struct TransactionLogTopic {
  std::string topic;
  std::vector<std::int32_t> partitions;

  bool operator==(const TransactionLogTopic&) const = default;
};

struct TransactionLogValue {
  static constexpr std::int16_t kWrittenVersion = 0;
  static constexpr std::int16_t kMaxVersion = 1;

  std::int16_t version = kWrittenVersion;  // the version decoded, or to encode
  std::int64_t producer_id = -1;
  std::int16_t producer_epoch = -1;
  std::int32_t timeout_ms = 0;
  TransactionLogState state = TransactionLogState::kEmpty;
  std::optional<std::vector<TransactionLogTopic>> partitions;  // nullopt: null (state Empty)
  std::int64_t last_update_timestamp_ms = -1;                  // wall clock, ms since the epoch
  std::int64_t start_timestamp_ms = -1;                        // -1: no transaction started
  std::int64_t previous_producer_id = -1;                      // v1 only (tag 0)
  std::int64_t next_producer_id = -1;                          // v1 only (tag 1)
  std::int16_t client_transaction_version = 0;                 // v1 only (tag 2)

  bool operator==(const TransactionLogValue&) const = default;

  // The value in `version` (0 or 1; v1 writes the tagged fields that differ from their
  // defaults).
  [[nodiscard]] std::vector<std::uint8_t> encode() const;
  // Decodes version 0 or 1 (unknown tagged fields are skipped); kCorruptMessage for another
  // version or malformed bytes.
  static Result<TransactionLogValue> decode(std::span<const std::uint8_t> bytes);
};

}  // namespace kgroups::protocol
