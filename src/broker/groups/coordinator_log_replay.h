// SPDX-License-Identifier: Apache-2.0
//
// replay_coordinator_log(): walks one partition of a coordinator's internal topic
// (__consumer_offsets, __transaction_state) record by record, from its log start offset on,
// in offset order, as a coordinator reads the partition when it becomes its leader. Control
// batches (transaction markers) are passed over; batches that do not decode (compressed ones
// included) are skipped and counted. Not thread-safe: runs on the broker's thread with the
// log.
#pragma once

#include <cstddef>
#include <functional>

#include "broker/storage/batch_log.h"
#include "protocol/batch_records.h"

namespace kgroups::broker {

struct CoordinatorLogReplay {
  std::size_t records = 0;  // records `apply` read
  std::size_t skipped = 0;  // records `apply` could not read, and batches that do not decode
};

// Calls `apply` on every record of `log`'s data batches at or above its log start offset;
// `apply` returns false for a record it cannot read (counted in `skipped`).
CoordinatorLogReplay replay_coordinator_log(
    const BatchLog& log, const std::function<bool(const protocol::BatchRecord&)>& apply);

}  // namespace kgroups::broker
