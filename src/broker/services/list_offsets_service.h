// SPDX-License-Identifier: Apache-2.0
//
// list_offsets(): what a ListOffsets does, for handlers/list_offsets_handler.cc (whose header
// comment lists the behaviour per version): per partition, the log start offset, the high
// watermark, the record with the newest timestamp, or the first record at or after a
// timestamp.
// Not thread-safe: runs on the broker's network thread.
#pragma once

#include "broker/storage/cluster.h"
#include "broker/storage/replication_controller.h"
#include "protocol/messages/list_offsets.h"
#include "protocol/record_validator.h"

namespace kgroups::broker {

// The answer to `request`; `records` searches uncompressed batches record by record.
// `replication` and `node`: the broker asked (--brokers); a partition it does not lead answers
// NOT_LEADER_OR_FOLLOWER, and current_leader_epoch (v4+) is checked against the leader's
// (FENCED_LEADER_EPOCH, UNKNOWN_LEADER_EPOCH). Offsets found carry the leader epoch.
protocol::ListOffsetsResponse list_offsets(Cluster& cluster, protocol::RecordValidator& records,
                                           const protocol::ListOffsetsRequest& request,
                                           const ReplicationController& replication,
                                           std::int32_t node = 0);

}  // namespace kgroups::broker
