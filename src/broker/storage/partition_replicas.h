// SPDX-License-Identifier: Apache-2.0
//
// PartitionReplicas: who holds one partition and how far each has got — the replicas in
// assignment order (the first is the preferred leader), the leader and its leader epoch, the
// in-sync replica set (ISR), each follower's log end offset and when it last caught up, and
// the leader-epoch cache (the offset each epoch began at) that OffsetForLeaderEpoch answers
// from. The replicas share the leader's BatchLog: a follower's log is the log's first
// log_end_offset offsets, so replication copies no bytes (ReplicationController moves the
// offsets, the ISR and the high watermark; BatchLog::truncate_to() cuts the log when a new
// leader lacks what the old one appended).
//
// An isolated broker (fenced by the controller but alive to its clients) may still believe it
// leads at its old epoch: stale_leader() is that belief, with the high watermark it froze at
// and the acks=1 writes it acknowledged since, which no replica holds and which are lost when
// it rejoins.
//
// A reassignment in progress (partition_reassignment.h) changes the replica set: the
// ReplicationController adds the new replicas out of the ISR, orders the set targets first,
// and removes the leaving replicas when it completes.
// Not thread-safe: the broker's network thread owns it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "broker/config/memory_plan.h"
#include "broker/storage/partition_reassignment.h"

namespace kgroups::broker {

struct ReplicaState {
  std::int32_t node = 0;
  std::int64_t log_end_offset = 0;  // a follower's; the leader's is the BatchLog's end
  std::int64_t caught_up_ms = 0;    // when it last had all the leader had (lastCaughtUpTimeMs)
  std::int64_t last_fetch_ms = 0;   // a late follower fetches again replication delay after
  bool in_sync = true;
};

// Where a leader epoch began: Kafka's leader-epoch cache entry.
struct LeaderEpochStart {
  std::int32_t epoch = 0;
  std::int64_t start_offset = 0;
};
static_assert(sizeof(ReplicaState) <= kBytesPerReplica, "the memory plan reserves less");
static_assert(sizeof(LeaderEpochStart) <= kBytesPerLeaderEpoch, "the memory plan reserves less");

// What an isolated broker believes of a partition it led when the controller fenced it.
struct StaleLeadership {
  std::int32_t node = -1;  // -1: no broker believes so
  std::int32_t epoch = 0;
  std::int64_t high_watermark = 0;  // frozen: no follower fetches from it any more
  std::int64_t log_end_offset = 0;  // moves with the acks=1 writes it acknowledges (lost)
  std::int64_t lost_records = 0;    // records it acknowledged that no replica holds
  std::size_t isr_size = 0;         // the ISR it believes in: the one it had (it cannot change it)
};

class PartitionReplicas {
 public:
  static constexpr std::int32_t kNoLeader = -1;
  // Leader epochs kept in the cache at most; older ones are forgotten. The memory plan
  // reserves them per partition (memory_plan.h).
  static constexpr auto kMaxEpochsKept = static_cast<std::size_t>(kMaxLeaderEpochsKept);

  // One replica on `node`, the leader at epoch 0: a single broker's partition.
  PartitionReplicas() : replicas_{ReplicaState{}}, leader_(0), epochs_{{0, 0}} {}

  // Assigns `nodes` (distinct; the first is the preferred leader), all in sync at
  // `log_end_offset`; the first leads at epoch 0.
  void assign(std::span<const std::int32_t> nodes, std::int64_t log_end_offset);

  [[nodiscard]] std::span<const ReplicaState> replicas() const { return replicas_; }
  [[nodiscard]] std::span<ReplicaState> replicas() { return replicas_; }
  [[nodiscard]] ReplicaState* find(std::int32_t node);
  [[nodiscard]] const ReplicaState* find(std::int32_t node) const;
  [[nodiscard]] bool has_followers() const { return replicas_.size() > 1; }
  [[nodiscard]] std::int32_t leader() const { return leader_; }
  [[nodiscard]] std::int32_t leader_epoch() const { return epoch_; }
  [[nodiscard]] std::vector<std::int32_t> replica_nodes() const;
  [[nodiscard]] std::vector<std::int32_t> isr_nodes() const;
  [[nodiscard]] std::size_t isr_size() const;

  // Makes `node` (a replica, or kNoLeader: the partition goes offline) the leader at the next
  // epoch, which begins at `start_offset` (the new leader's log end).
  void elect(std::int32_t node, std::int64_t start_offset);

  // OffsetForLeaderEpoch, as Kafka's leader-epoch cache answers: the largest epoch at or below
  // `epoch` this partition had, and the offset the epoch after it began at (`log_end_offset`
  // for the current epoch); for an epoch older than every one kept, `epoch` itself and the
  // first kept epoch's start; {-1, -1} for a negative epoch or one above the current.
  [[nodiscard]] std::pair<std::int32_t, std::int64_t> end_offset_for(
      std::int32_t epoch, std::int64_t log_end_offset) const;
  // The epochs kept, oldest first.
  [[nodiscard]] std::span<const LeaderEpochStart> epochs() const { return epochs_; }
  // A restart: the epochs a leader-epoch-checkpoint kept (oldest first, at most
  // kMaxEpochsKept are kept); the newest becomes the current epoch. Nothing for none.
  void restore_epochs(std::span<const LeaderEpochStart> epochs);
  // Forgets epochs that began at or after `offset` (the log was truncated there), keeping
  // the current one.
  void truncate_epochs(std::int64_t offset);

  [[nodiscard]] const StaleLeadership& stale_leader() const { return stale_; }
  StaleLeadership& stale_leader() { return stale_; }

  // Reassignment (the ReplicationController keeps these consistent). add_replica() appends a
  // replica on `node` (not yet a replica) out of the ISR at `log_end_offset`, as if it had
  // fetched at `now_ms` (a late broker's first fetch comes after its delay);
  // remove_replica() drops `node`'s replica (not the leader's: elect another first, or
  // after); reorder() puts the replicas in the order of `nodes`, which must name each
  // replica once. Pointers from find() and spans from replicas() dangle after these.
  void add_replica(std::int32_t node, std::int64_t log_end_offset, std::int64_t now_ms);
  void remove_replica(std::int32_t node);
  void reorder(std::span<const std::int32_t> nodes);
  [[nodiscard]] const std::optional<PartitionReassignment>& reassignment() const {
    return reassignment_;
  }
  void set_reassignment(std::optional<PartitionReassignment> reassignment) {
    reassignment_ = std::move(reassignment);
  }

 private:
  std::vector<ReplicaState> replicas_;
  std::int32_t leader_ = kNoLeader;
  std::int32_t epoch_ = 0;
  std::vector<LeaderEpochStart> epochs_;
  StaleLeadership stale_;
  std::optional<PartitionReassignment> reassignment_;
};

}  // namespace kgroups::broker
