// SPDX-License-Identifier: Apache-2.0
//
// ReplicationObserver: what the ReplicationController tells whoever watches the cluster — a
// broker stopped, started or was isolated, a partition got a new leader (and how many records
// the election lost), an in-sync replica set shrank or grew, a reassignment started, completed
// or was cancelled. The broker's EventRecorder turns
// these into events. Every method is a no-op by default; an observer must not change the
// cluster from within a call, and must not throw.
// Not thread-safe: called on the broker's thread.
#pragma once

#include <cstdint>
#include <span>

#include "broker/storage/partition_reassignment.h"

namespace kgroups::broker {

struct StoredTopic;

// What a broker of the cluster is doing.
enum class BrokerState : std::uint8_t {
  kRunning,   // serves clients and replicates
  kStopped,   // its listener refuses, its connections are closed, its replicas are offline
  kIsolated,  // serves its clients but is cut from the controller and from replication
};

// What happened to a partition's reassignment (AlterPartitionReassignments).
enum class ReassignmentStep : std::uint8_t {
  kStarted,    // accepted: the added replicas catch up (a new target replaces one in progress)
  kCompleted,  // every target is in the ISR and the leaving replicas went
  kCancelled,  // null replicas: the original replicas are back, the added ones went
};

class ReplicationObserver {
 public:
  virtual ~ReplicationObserver() = default;
  virtual void on_broker_state(std::int32_t /*node*/, BrokerState /*state*/) {}
  // Partition `partition` of `topic` is led by `leader` (-1: offline) at `epoch`; `unclean`
  // when an out-of-sync replica was chosen; `lost_records` records no longer in the log.
  virtual void on_leader_elected(const StoredTopic& /*topic*/, std::int32_t /*partition*/,
                                 std::int32_t /*leader*/, std::int32_t /*epoch*/, bool /*unclean*/,
                                 std::int64_t /*lost_records*/) {}
  // The in-sync replicas of the partition are now `isr`.
  virtual void on_isr_changed(const StoredTopic& /*topic*/, std::int32_t /*partition*/,
                              std::span<const std::int32_t> /*isr*/, bool /*shrunk*/) {}
  // The reassignment of the partition took `step`; `replicas` is its replica set after it
  // (started: targets then leaving replicas; completed: the targets; cancelled: the original
  // replicas).
  virtual void on_reassignment(const StoredTopic& /*topic*/, std::int32_t /*partition*/,
                               ReassignmentStep /*step*/,
                               const PartitionReassignment& /*reassignment*/,
                               std::span<const std::int32_t> /*replicas*/) {}
};

// The name of `state` in events and the HTTP API: "running", "stopped", "isolated".
const char* broker_state_name(BrokerState state);

}  // namespace kgroups::broker
