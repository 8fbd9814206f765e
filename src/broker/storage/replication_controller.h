// SPDX-License-Identifier: Apache-2.0
//
// ReplicationController: the cluster's controller and every follower's replica fetcher, in
// one process. It knows which brokers run, are stopped or isolated, and how late each
// follower fetches; it moves followers' log end offsets, shrinks the in-sync replica set of a
// follower that has not caught up for replica.lag.time.max.ms and grows it back once the
// follower has the high watermark, moves the high watermark to the lowest log end offset of
// the ISR, and elects leaders when a broker stops or is isolated (the first live in-sync
// replica in assignment order; with unclean.leader.election.enable, any live replica, the log
// truncated to what it holds).
//
// Replicas share the leader's BatchLog (partition_replicas.h). A follower on a running
// broker without a replication delay fetches as soon as records are appended (on_append()),
// so with every broker up an acks=all write is acknowledged in the same turn; the others
// fetch at tick(). The high watermark never goes backwards except when an unclean election
// truncates the log below it, which the observer hears as lost records.
//
// Reassignments (AlterPartitionReassignments) run as Kafka's: the replica set becomes the
// union of targets and originals, the added replicas catch up as followers and join the ISR
// at tick(), and once every target is in the ISR the leaving replicas are removed (a removed
// leader is replaced by the first live in-sync target, at a new epoch). The observers hear
// each reassignment start, complete or be cancelled.
//
// Wakes long-polling fetches and acks=all produces waiting on a partition (AppendNotifier)
// when its high watermark moves or its leader changes.
// Not thread-safe: the broker's network thread owns it.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "broker/storage/append_notifier.h"
#include "broker/storage/cluster.h"
#include "broker/storage/replication_observer.h"
#include "protocol/error_code.h"

namespace kgroups::broker {

struct ReplicationSettings {
  std::int32_t brokers = 1;                      // node ids 0..brokers-1
  std::int64_t replica_lag_time_max_ms = 30000;  // replica.lag.time.max.ms
};

// Whether a reassignment may change the partition's replication factor (KIP-860).
enum class ReplicationFactorChange : std::uint8_t { kAllowed, kRefused };

// What a broker believes of a partition when a client asks it to lead (Produce, Fetch).
enum class Leadership : std::uint8_t {
  kLeader,       // it leads the partition
  kStaleLeader,  // an isolated broker that still believes it leads (it is fenced)
  kNotLeader,    // another broker leads, or none does
};

class ReplicationController {
 public:
  // `cluster` and `notifier` must outlive the controller. The clock gives milliseconds (the
  // broker passes the coordinators' clock, manual with --manual-clock).
  ReplicationController(Cluster& cluster, AppendNotifier& notifier, ReplicationSettings settings,
                        std::function<std::int64_t()> now_ms);

  [[nodiscard]] std::int32_t brokers() const { return settings_.brokers; }
  [[nodiscard]] const ReplicationSettings& settings() const { return settings_; }
  [[nodiscard]] bool is_broker(std::int32_t node) const {
    return node >= 0 && node < settings_.brokers;
  }
  [[nodiscard]] BrokerState state(std::int32_t node) const { return brokers_.at(node).state; }
  // Running or isolated: it answers its clients.
  [[nodiscard]] bool serves_clients(std::int32_t node) const {
    return is_broker(node) && state(node) != BrokerState::kStopped;
  }
  // The controller: the lowest running broker, or -1 when none runs.
  [[nodiscard]] std::int32_t controller_id() const;
  // How late broker `node`'s followers fetch (0: at once).
  [[nodiscard]] std::int64_t replication_delay_ms(std::int32_t node) const {
    return brokers_.at(node).replication_delay_ms;
  }

  // Faults for tests. Each returns kNone, or kBrokerNotAvailable for an unknown node id.
  // stop(): its replicas leave every ISR they are not the last of, and partitions it led get
  // a new leader. start(): a stopped or isolated broker runs again; what it acknowledged
  // while isolated and no replica holds is lost; its followers catch up at the next tick and
  // rejoin the ISR; an offline partition it can lead gets it as leader. isolate(): as stop()
  // for the controller, but the broker still answers its clients, believing it leads the
  // partitions it led (their acks=all writes never succeed).
  protocol::ErrorCode stop(std::int32_t node);
  protocol::ErrorCode start(std::int32_t node);
  protocol::ErrorCode isolate(std::int32_t node);
  // Broker `node`'s followers fetch only every `delay_ms` (0: at once).
  protocol::ErrorCode set_replication_delay(std::int32_t node, std::int64_t delay_ms);

  // What broker `node` believes of `log`'s partition.
  [[nodiscard]] Leadership leadership(const BatchLog& log, std::int32_t node) const;

  // A read or write of `log`'s partition sent to broker `node` by a client that knows leader
  // epoch `known_epoch` (-1: any): NOT_LEADER_OR_FOLLOWER off the leader, FENCED_LEADER_EPOCH
  // for an older epoch, UNKNOWN_LEADER_EPOCH for a newer one, else NONE; with the epoch `node`
  // believes in (a stale leader's own).
  struct LeaderCheck {
    protocol::ErrorCode error = protocol::ErrorCode::kNone;
    Leadership leadership = Leadership::kLeader;
    std::int32_t epoch = 0;
  };
  [[nodiscard]] LeaderCheck check_leader(const BatchLog& log, std::int32_t node,
                                         std::int32_t known_epoch) const;

  // Called by the Cluster when partitions [first, end) of `topic` were created: replicas on
  // brokers that do not run start out of the ISR, and a leader that does not run is replaced.
  void on_new_partitions(StoredTopic& topic, std::size_t first);

  // Called by the Cluster after every append to a partition with followers: the followers
  // that fetch at once catch up, and the high watermark moves. With `wait_for_isr` (the
  // internal topics' appends: Kafka's coordinators write with acks=all and answer once the
  // ISR has the records) every running in-sync follower catches up too, a replication delay
  // notwithstanding: the coordinator's wait for it takes no time here.
  void on_append(BatchLog& log, bool wait_for_isr = false);
  // A stale leader acknowledged `records` records with acks=1: returns the base offset it
  // gave them (they are lost).
  std::int64_t stale_append(BatchLog& log, std::int64_t records);

  // The replica fetchers' and the ISR's periodic work, over at most kPartitionsPerTick
  // partitions a call, going on where the last call stopped (a round of 100,000 partitions
  // takes 25 calls):
  // late followers fetch when due, followers that did not catch up for
  // replica.lag.time.max.ms leave the ISR, caught-up ones rejoin it, high watermarks move.
  void tick();
  static constexpr std::size_t kPartitionsPerTick = 4096;

  // ElectLeaders with the preferred type: makes partition `partition` of `topic` led by its
  // first replica. kElectionNotNeeded when it already leads; kPreferredLeaderNotAvailable when
  // it is not a running in-sync replica.
  protocol::ErrorCode elect_preferred(StoredTopic& topic, std::int32_t partition);
  // ElectLeaders with the unclean type: a leader for an offline partition, from any running
  // replica. kElectionNotNeeded when it has a leader; kEligibleLeadersNotAvailable when no
  // replica runs.
  protocol::ErrorCode elect_unclean(StoredTopic& topic, std::int32_t partition);

  // AlterPartitionReassignments: moves partition `partition` of `topic` to the replicas
  // `target` (the first is the preferred leader). kInvalidReplicaAssignment when `target` is
  // empty, longer than the brokers, names a node that is not a broker, or one twice; then, with
  // `factor` kRefused, kInvalidReplicationFactor when `target`'s length differs from the
  // replication factor (the target's of a reassignment in progress); `reason` says which and
  // nothing changes. A reassignment in progress is replaced: the new one is computed
  // from the replicas before it, and its added replicas that are not targets any more leave at
  // once. Targets that are the replicas already, in any order, complete at once (the order
  // changes); otherwise the move completes at a later tick() (see the class comment), or at once
  // when every target is in the ISR already.
  protocol::ErrorCode reassign(StoredTopic& topic, std::int32_t partition,
                               std::span<const std::int32_t> target, std::string& reason,
                               ReplicationFactorChange factor = ReplicationFactorChange::kAllowed);
  // AlterPartitionReassignments with null replicas: the partition goes back to the replicas it
  // had before the reassignment in progress (the added ones leave). kNoReassignmentInProgress
  // when none runs; kInvalidReplicaAssignment when an added replica leads and no original one
  // can (running and in the ISR, or any running one with unclean.leader.election.enable): the
  // cancel would lose records; `reason` says so and nothing changes.
  protocol::ErrorCode cancel_reassignment(StoredTopic& topic, std::int32_t partition,
                                          std::string& reason);

  // Listeners told of every broker state change (the listeners close a stopped broker's
  // connections); called after the controller acted.
  void add_state_listener(std::function<void(std::int32_t, BrokerState)> listener) {
    state_listeners_.push_back(std::move(listener));
  }
  // Observers told of every change, in the order added (they must outlive the controller,
  // or be replaced first); set_observer() makes `observer` the only one.
  void add_observer(ReplicationObserver* observer) { observers_.push_back(observer); }
  void set_observer(ReplicationObserver* observer) { observers_.assign(1, observer); }

 private:
  struct BrokerStatus {
    BrokerState state = BrokerState::kRunning;
    std::int64_t replication_delay_ms = 0;
  };

  // tick()'s work on one partition.
  void tick_partition(StoredTopic& topic, std::int32_t partition, std::int64_t now);
  // Whether `node`'s followers fetch as soon as records are appended.
  [[nodiscard]] bool fetches_at_once(std::int32_t node) const;
  // Leader `node` (or none) for `topic`'s partition, truncating the log to its log end.
  void install_leader(StoredTopic& topic, std::int32_t partition, std::int32_t node, bool unclean);
  // Elects a leader for a partition whose leader cannot lead any more.
  void elect(StoredTopic& topic, std::int32_t partition);
  // Moves the high watermark to the lowest log end of the ISR; wakes waiters if it moved.
  void refresh_high_watermark(BatchLog& log);
  void set_in_sync(StoredTopic& topic, std::int32_t partition, ReplicaState& replica, bool in_sync);
  // Fences `node` (stop and isolate): it leaves the ISRs and its partitions get new leaders.
  void fence(std::int32_t node, bool believes_it_leads);
  void changed(std::int32_t node, BrokerState state);
  // Ends `topic`'s partition's reassignment when every target replica is in the ISR: the
  // leaving replicas go, and a leaving leader is replaced. Returns whether it ended.
  bool complete_reassignment(StoredTopic& topic, std::int32_t partition);
  // Tells the observers that `topic`'s partition's reassignment took `step`.
  void reassignment_step(const StoredTopic& topic, std::int32_t partition, ReassignmentStep step,
                         const PartitionReassignment& reassignment);
  // kNone when `target` names distinct brokers, at most one per broker; else
  // kInvalidReplicaAssignment with `reason`.
  [[nodiscard]] protocol::ErrorCode check_target(const StoredTopic& topic, std::int32_t partition,
                                                 std::span<const std::int32_t> target,
                                                 std::string& reason) const;
  // Removes the replicas on `nodes` from the partition; if the leader was one of them, elects
  // another. Tells the observer when the ISR shrank.
  void remove_replicas(StoredTopic& topic, std::int32_t partition,
                       std::span<const std::int32_t> nodes);

  Cluster& cluster_;
  AppendNotifier& notifier_;
  ReplicationSettings settings_;
  std::function<std::int64_t()> now_ms_;
  std::vector<BrokerStatus> brokers_;
  // Where the next tick() goes on: a topic's name and a partition of it.
  std::string cursor_topic_;
  std::size_t cursor_partition_ = 0;
  std::vector<std::function<void(std::int32_t, BrokerState)>> state_listeners_;
  std::vector<ReplicationObserver*> observers_;  // not owned
};

}  // namespace kgroups::broker
