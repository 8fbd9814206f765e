// SPDX-License-Identifier: Apache-2.0
//
// OffsetCommit as both group coordinators take it: the request (OffsetCommitParams), the
// answer (OffsetCommitResult), and the steps they share once a commit has passed their own
// fencing: each partition checked against the metadata limit, the bytes the accepted ones
// would add (for the stored-bytes cap), and the store. OffsetDelete's answer sits here too.
// Thread-safe: plain values and pure functions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "broker/coordinator/group_error.h"
#include "broker/coordinator/offset_store.h"

namespace kgroups::broker {

struct OffsetCommitParams {
  std::string group_id;
  std::int32_t generation_id = -1;  // -1 with an empty member_id: a commit from outside the group
  std::string member_id;
  std::vector<PartitionOffset> offsets;
  std::optional<std::string> group_instance_id;  // OffsetCommit v7+: set by a static member
  // TxnOffsetCommit: fence and check the offsets, store nothing (they wait for EndTxn).
  bool validate_only = false;
  // EndTxn's commit of a transaction's offsets: they were fenced when TxnOffsetCommit took
  // them, so the member's identity is not checked again.
  bool unfenced = false;
};

struct OffsetCommitResult {
  // For the whole request: NONE, or the reason nothing was stored.
  GroupError error = GroupError::kNone;
  // One per params.offsets entry, in request order: `error` when it is not NONE;
  // otherwise NONE (stored) or OFFSET_METADATA_TOO_LARGE (not stored).
  std::vector<GroupError> partition_errors;
};

// Returns the entries of `params.offsets` that `result` says were stored, in request order.
std::vector<PartitionOffset> stored_offsets(const OffsetCommitParams& params,
                                            const OffsetCommitResult& result);

// OffsetDelete's outcome for one group.
struct OffsetDeleteResult {
  GroupError error = GroupError::kNone;  // for the whole request; nothing deleted unless NONE
  // With error NONE, one per requested partition, in request order: NONE (deleted, or there
  // was nothing to delete) or GROUP_SUBSCRIBED_TO_TOPIC (kept).
  std::vector<GroupError> partition_errors;
};

// The answer to a commit refused as a whole: `error` for the request and each partition.
OffsetCommitResult refused_offset_commit(const OffsetCommitParams& params, GroupError error);

// What a fenced commit would store: one error per offset (OFFSET_METADATA_TOO_LARGE when its
// metadata is longer than `metadata_max_bytes`, else NONE), how many it stores, and by how
// many bytes they grow `store` (nullptr: the group does not exist yet; its own entry is not
// counted). A partition named twice counts twice: errs on the safe side.
struct OffsetCommitPlan {
  std::vector<GroupError> partition_errors;
  std::size_t storing = 0;
  std::size_t growth_bytes = 0;
};
OffsetCommitPlan plan_offset_commit(const OffsetStore* store,
                                    const std::vector<PartitionOffset>& offsets,
                                    std::size_t metadata_max_bytes);

// Stores the offsets whose entry of `partition_errors` is NONE, in request order.
void commit_planned_offsets(OffsetStore& store, const std::vector<PartitionOffset>& offsets,
                            const std::vector<GroupError>& partition_errors);

}  // namespace kgroups::broker
