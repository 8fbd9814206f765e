// SPDX-License-Identifier: Apache-2.0
//
// The control batch that ends a transaction in one partition (Kafka's EndTransactionMarker):
// magic 2, the transactional and control attribute bits, the producer's id and epoch, no
// sequence, and one record whose key is version 0 + the type (0 abort, 1 commit) and whose
// value is version 0 + the coordinator epoch. Readers skip it; read_committed readers learn
// from it where the transaction ended.
#pragma once

#include <cstdint>
#include <vector>

namespace kgroups::broker {

inline constexpr std::int16_t kAbortMarkerType = 0;
inline constexpr std::int16_t kCommitMarkerType = 1;

// The marker batch, base offset 0 (the log writes the real one), CRC set.
std::vector<std::uint8_t> transaction_marker(std::int64_t producer_id, std::int16_t producer_epoch,
                                             bool committed, std::int64_t timestamp_ms);

}  // namespace kgroups::broker
