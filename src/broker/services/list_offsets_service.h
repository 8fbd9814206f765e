// SPDX-License-Identifier: Apache-2.0
//
// list_offsets(): what a ListOffsets does, for handlers/list_offsets_handler.cc (whose header
// comment lists the behaviour per version): per partition, the log start offset, the high
// watermark, the record with the newest timestamp, or the first record at or after a
// timestamp.
// Not thread-safe: runs on the broker's network thread.
#pragma once

#include "broker/storage/cluster.h"
#include "protocol/messages/list_offsets.h"
#include "protocol/record_validator.h"

namespace kgroups::broker {

// The answer to `request`; `records` searches uncompressed batches record by record.
protocol::ListOffsetsResponse list_offsets(Cluster& cluster, protocol::RecordValidator& records,
                                           const protocol::ListOffsetsRequest& request);

}  // namespace kgroups::broker
