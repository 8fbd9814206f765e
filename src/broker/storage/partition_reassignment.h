// SPDX-License-Identifier: Apache-2.0
//
// PartitionReassignment: a partition's move to other brokers in progress (KIP-455), as
// AlterPartitionReassignments starts it and ListPartitionReassignments shows it. While it
// runs, the partition's replica set is the union: the target replicas first, in the order
// asked, then the original replicas that leave. `adding` are the targets that were not
// replicas (they join out of the ISR and catch up), `removing` the original replicas that are
// not targets (they leave once every target is in the ISR). Its target's length is the
// replication factor the partition is moving to (KIP-860's check compares with it).
//
// plan_reassignment() computes it from the replicas before the move and the target; the
// ReplicationController applies it (partition_replicas.h holds it per partition).
// Thread-safety: plain values.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace kgroups::broker {

struct PartitionReassignment {
  std::vector<std::int32_t> target;    // the replicas asked for, in the order asked
  std::vector<std::int32_t> original;  // the replicas before it, in their order (a cancel's)
  std::vector<std::int32_t> adding;    // targets that were not replicas, in target order
  std::vector<std::int32_t> removing;  // original replicas that are not targets, in order
};

// What moving a partition from `original` replicas to `target` (distinct node ids, not empty)
// takes: the replica set while it runs (targets first, then the leaving originals) and what is
// added and removed. Both lists empty: the targets are the original replicas, at most in
// another order, and the move completes at once.
struct ReassignmentPlan {
  std::vector<std::int32_t> replicas;
  PartitionReassignment change;
};
[[nodiscard]] ReassignmentPlan plan_reassignment(std::span<const std::int32_t> original,
                                                 std::span<const std::int32_t> target);

}  // namespace kgroups::broker
