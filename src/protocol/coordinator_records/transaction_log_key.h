// SPDX-License-Identifier: Apache-2.0
//
// TransactionLogKey: the key of a record in Kafka's internal __transaction_state topic, the
// transaction coordinator's log. Kafka's key version 0: an int16 0, then the transactional
// id as an int16-length string (non-flexible). The value (transaction_log_value.h) is null for
// a tombstone: the id expired, and compaction deletes it. Thread-safe: pure functions.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/result.h"

namespace kgroups::protocol {

struct TransactionLogKey {
  static constexpr std::int16_t kVersion = 0;

  // The encoded key of `transactional_id` (at most 32767 bytes: the broker keeps ids within
  // --max-id-length).
  static std::vector<std::uint8_t> encode(std::string_view transactional_id);
  // The transactional id of an encoded key; kCorruptMessage for another version or bytes
  // that hold more or fewer than the id.
  static Result<std::string> decode(std::span<const std::uint8_t> bytes);
};

}  // namespace kgroups::protocol
