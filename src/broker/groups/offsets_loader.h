// SPDX-License-Identifier: Apache-2.0
//
// load_offsets_partition(): rebuilds, from one partition of __consumer_offsets, the groups
// whose records it holds, as Kafka's coordinator loads a partition when it becomes its
// leader. The log is read from its start to its high watermark and replayed in order: an
// offset commit record sets the group's offset of that partition (offset, metadata, leader
// epoch and commit timestamp, exactly as written), its tombstone removes it; a classic group's
// metadata record replaces the one before (its tombstone forgets it), and so does each
// consumer-group record. What is left is stored in the CoordinatorService without writing
// any record back: each classic group as its last GroupMetadata record has it
// (load_classic_group(): its generation, protocol, leader, and members with their
// subscriptions and assignments, Stable, so members go on heartbeating in their generation;
// an Empty group only if it has offsets), each consumer group with members as its records
// have it (load_consumer_group(): group epoch, target assignment, each member's details,
// epochs, state and partitions, so members go on heartbeating at their epochs), then every
// group's committed offsets (restore_offsets()). Records that do not decode, batches that
// are compressed or control batches are skipped and counted.
// Not thread-safe: runs on the broker's thread with the log and the service.
#pragma once

#include <cstddef>
#include <cstdint>

#include "broker/groups/coordinator_service.h"
#include "broker/storage/batch_log.h"

namespace kgroups::broker {

struct OffsetsLoadResult {
  std::size_t records = 0;         // records replayed
  std::size_t skipped = 0;         // records or batches that could not be read
  std::size_t groups = 0;          // groups loaded or whose offsets were restored
  std::size_t offsets = 0;         // committed offsets restored
  std::size_t classic_groups = 0;  // classic groups with metadata in the log
  std::size_t members = 0;         // members of the groups loaded
  std::size_t refused_groups = 0;  // groups a limit of the coordinators refused
};

// Replays `log` (partition `partition` of __consumer_offsets) into `service`. Groups of the
// partition that `service` already holds get the loaded offsets on top of theirs; call
// service.unload_partition(partition) first for a clean load.
OffsetsLoadResult load_offsets_partition(const BatchLog& log, std::int32_t partition,
                                         CoordinatorService& service);

}  // namespace kgroups::broker
