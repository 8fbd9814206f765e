// SPDX-License-Identifier: Apache-2.0
#include "broker/storage/partition_replicas.h"

#include <algorithm>
#include <iterator>

namespace kgroups::broker {

void PartitionReplicas::assign(std::span<const std::int32_t> nodes, std::int64_t log_end_offset) {
  replicas_.clear();
  for (const std::int32_t node : nodes) {
    replicas_.push_back(ReplicaState{.node = node, .log_end_offset = log_end_offset});
  }
  leader_ = nodes.empty() ? kNoLeader : nodes.front();
  epoch_ = 0;
  epochs_.assign(1, LeaderEpochStart{.epoch = 0, .start_offset = log_end_offset});
  stale_ = {};
  reassignment_.reset();
}

void PartitionReplicas::add_replica(std::int32_t node, std::int64_t log_end_offset,
                                    std::int64_t now_ms) {
  replicas_.push_back(ReplicaState{.node = node,
                                   .log_end_offset = log_end_offset,
                                   .caught_up_ms = now_ms,
                                   .last_fetch_ms = now_ms,
                                   .in_sync = false});
}

void PartitionReplicas::remove_replica(std::int32_t node) {
  std::erase_if(replicas_, [node](const ReplicaState& replica) { return replica.node == node; });
}

void PartitionReplicas::reorder(std::span<const std::int32_t> nodes) {
  std::vector<ReplicaState> ordered;
  ordered.reserve(replicas_.size());
  for (const std::int32_t node : nodes) {
    if (const ReplicaState* replica = find(node)) ordered.push_back(*replica);
  }
  replicas_ = std::move(ordered);
}

ReplicaState* PartitionReplicas::find(std::int32_t node) {
  for (ReplicaState& replica : replicas_) {
    if (replica.node == node) return &replica;
  }
  return nullptr;
}

const ReplicaState* PartitionReplicas::find(std::int32_t node) const {
  return const_cast<PartitionReplicas*>(this)->find(node);
}

std::vector<std::int32_t> PartitionReplicas::replica_nodes() const {
  std::vector<std::int32_t> nodes;
  nodes.reserve(replicas_.size());
  for (const ReplicaState& replica : replicas_) nodes.push_back(replica.node);
  return nodes;
}

std::vector<std::int32_t> PartitionReplicas::isr_nodes() const {
  std::vector<std::int32_t> nodes;
  for (const ReplicaState& replica : replicas_) {
    if (replica.in_sync) nodes.push_back(replica.node);
  }
  return nodes;
}

std::size_t PartitionReplicas::isr_size() const {
  return static_cast<std::size_t>(std::count_if(replicas_.begin(), replicas_.end(),
                                                [](const ReplicaState& r) { return r.in_sync; }));
}

void PartitionReplicas::elect(std::int32_t node, std::int64_t start_offset) {
  leader_ = node;
  ++epoch_;
  if (!epochs_.empty() && epochs_.back().start_offset >= start_offset) {
    // The previous epoch appended nothing: Kafka's cache keeps only the newer entry.
    truncate_epochs(start_offset);
  }
  // Elections a client can cause (ElectLeaders, reassignments) must not grow the cache
  // without end: the oldest epochs go, as Kafka's go when the log start passes them. Made room
  // for first, so the vector never holds (or allocates for) more than kMaxEpochsKept.
  if (epochs_.size() >= kMaxEpochsKept) epochs_.erase(epochs_.begin());
  epochs_.push_back(LeaderEpochStart{.epoch = epoch_, .start_offset = start_offset});
}

void PartitionReplicas::restore_epochs(std::span<const LeaderEpochStart> epochs) {
  if (epochs.empty()) return;
  const std::size_t kept = std::min(epochs.size(), kMaxEpochsKept);
  epochs_.assign(epochs.end() - static_cast<std::ptrdiff_t>(kept), epochs.end());
  epoch_ = epochs_.back().epoch;
}

std::pair<std::int32_t, std::int64_t> PartitionReplicas::end_offset_for(
    std::int32_t epoch, std::int64_t log_end_offset) const {
  constexpr std::pair<std::int32_t, std::int64_t> kUndefined{-1, -1};
  if (epoch < 0 || epochs_.empty() || epoch > epochs_.back().epoch) return kUndefined;
  if (epoch == epochs_.back().epoch) return {epoch, log_end_offset};
  // The first epoch after the one asked for ends it; the one asked for is the largest kept at
  // or below it (or, older than all, itself).
  const auto higher = std::upper_bound(
      epochs_.begin(), epochs_.end(), epoch,
      [](std::int32_t wanted, const LeaderEpochStart& entry) { return wanted < entry.epoch; });
  if (higher == epochs_.begin()) return {epoch, higher->start_offset};
  return {std::prev(higher)->epoch, higher->start_offset};
}

void PartitionReplicas::truncate_epochs(std::int64_t offset) {
  while (epochs_.size() > 1 && epochs_.back().start_offset >= offset) epochs_.pop_back();
}

}  // namespace kgroups::broker
