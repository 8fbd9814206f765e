// SPDX-License-Identifier: Apache-2.0
//
// reconcile_member: one step of a member's reconciliation towards its target
// assignment with incremental revocation (Kafka's CurrentAssignmentBuilder).
// - A member first keeps assigned ∩ target and must revoke the rest; while it still
//   reports owning any of those it stays at its epoch in UNREVOKED_PARTITIONS.
// - Once it has revoked them (or had nothing to revoke) it moves to the target epoch
//   and gets the target partitions that no other member owns any more; those still
//   owned (at an older epoch) it waits for in UNRELEASED_PARTITIONS.
// So a partition never belongs to two members at once.
// Pure function; thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "broker/coordinator/consumer_assignment.h"
#include "broker/coordinator/consumer_group_member.h"

namespace kgroups::broker {

// Returns the epoch at which another member owns the partition, or -1 if none does.
using PartitionEpochLookup = std::function<std::int32_t(const TopicId&, std::int32_t)>;

// Returns `member` advanced as far as it can go towards `target` at
// `target_assignment_epoch`. `owned` is what the member reports owning (nullopt:
// not reported, so it has not revoked anything yet).
ConsumerGroupMember reconcile_member(const ConsumerGroupMember& member,
                                     std::int32_t target_assignment_epoch,
                                     const ConsumerAssignment& target,
                                     const PartitionEpochLookup& partition_epoch,
                                     const std::optional<std::vector<TopicPartitions>>& owned);

}  // namespace kgroups::broker
