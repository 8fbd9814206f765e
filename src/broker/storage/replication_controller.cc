// SPDX-License-Identifier: Apache-2.0
#include "broker/storage/replication_controller.h"

#include <algorithm>
#include <string>
#include <utility>

#include "broker/storage/partition_reassignment.h"

namespace kgroups::broker {

using protocol::ErrorCode;

namespace {

bool contains(std::span<const std::int32_t> nodes, std::int32_t node) {
  return std::find(nodes.begin(), nodes.end(), node) != nodes.end();
}

std::string partition_name(const StoredTopic& topic, std::int32_t partition) {
  return topic.name + "-" + std::to_string(partition);
}

}  // namespace

const char* broker_state_name(BrokerState state) {
  switch (state) {
    case BrokerState::kRunning:
      return "running";
    case BrokerState::kStopped:
      return "stopped";
    case BrokerState::kIsolated:
      return "isolated";
  }
  return "unknown";
}

ReplicationController::ReplicationController(Cluster& cluster, AppendNotifier& notifier,
                                             ReplicationSettings settings,
                                             std::function<std::int64_t()> now_ms)
    : cluster_(cluster),
      notifier_(notifier),
      settings_(settings),
      now_ms_(std::move(now_ms)),
      brokers_(static_cast<std::size_t>(std::max(settings.brokers, 1))) {}

std::int32_t ReplicationController::controller_id() const {
  for (std::size_t node = 0; node < brokers_.size(); ++node) {
    if (brokers_[node].state == BrokerState::kRunning) return static_cast<std::int32_t>(node);
  }
  return -1;
}

bool ReplicationController::fetches_at_once(std::int32_t node) const {
  const BrokerStatus& status = brokers_.at(static_cast<std::size_t>(node));
  return status.state == BrokerState::kRunning && status.replication_delay_ms == 0;
}

Leadership ReplicationController::leadership(const BatchLog& log, std::int32_t node) const {
  const PartitionReplicas& replicas = log.replicas();
  if (!serves_clients(node)) return Leadership::kNotLeader;
  if (state(node) == BrokerState::kIsolated) {
    return replicas.stale_leader().node == node ? Leadership::kStaleLeader : Leadership::kNotLeader;
  }
  return replicas.leader() == node ? Leadership::kLeader : Leadership::kNotLeader;
}

ReplicationController::LeaderCheck ReplicationController::check_leader(
    const BatchLog& log, std::int32_t node, std::int32_t known_epoch) const {
  LeaderCheck check;
  check.leadership = leadership(log, node);
  check.epoch = check.leadership == Leadership::kStaleLeader ? log.replicas().stale_leader().epoch
                                                             : log.replicas().leader_epoch();
  if (check.leadership == Leadership::kNotLeader) {
    check.error = ErrorCode::kNotLeaderForPartition;
  } else if (known_epoch != -1 && known_epoch < check.epoch) {
    check.error = ErrorCode::kFencedLeaderEpoch;
  } else if (known_epoch > check.epoch) {
    check.error = ErrorCode::kUnknownLeaderEpoch;
  }
  return check;
}

void ReplicationController::on_append(BatchLog& log, bool wait_for_isr) {
  const std::int64_t end = log.log_end_offset();
  const std::int64_t now = now_ms_();
  for (ReplicaState& replica : log.replicas().replicas()) {
    if (replica.node == log.replicas().leader()) continue;
    const bool fetches =
        fetches_at_once(replica.node) ||
        (wait_for_isr && replica.in_sync && state(replica.node) == BrokerState::kRunning);
    if (!fetches) continue;
    replica.log_end_offset = end;
    replica.caught_up_ms = now;
    replica.last_fetch_ms = now;
  }
  refresh_high_watermark(log);
}

void ReplicationController::on_new_partitions(StoredTopic& topic, std::size_t first) {
  for (std::size_t p = first; p < topic.partitions.size(); ++p) {
    PartitionReplicas& replicas = topic.partitions[p].replicas();
    const auto partition = static_cast<std::int32_t>(p);
    for (ReplicaState& replica : replicas.replicas()) {
      if (state(replica.node) != BrokerState::kRunning && replicas.isr_size() > 1) {
        replica.in_sync = false;
      }
    }
    if (state(replicas.leader()) != BrokerState::kRunning) elect(topic, partition);
  }
}

std::int64_t ReplicationController::stale_append(BatchLog& log, std::int64_t records) {
  StaleLeadership& stale = log.replicas().stale_leader();
  const std::int64_t base = stale.log_end_offset;
  stale.log_end_offset += records;
  stale.lost_records += records;
  return base;
}

void ReplicationController::refresh_high_watermark(BatchLog& log) {
  const PartitionReplicas& replicas = log.replicas();
  if (replicas.leader() == PartitionReplicas::kNoLeader) return;
  std::int64_t lowest = log.log_end_offset();
  bool followers_in_sync = false;
  for (const ReplicaState& replica : replicas.replicas()) {
    if (!replica.in_sync || replica.node == replicas.leader()) continue;
    followers_in_sync = true;
    lowest = std::min(lowest, replica.log_end_offset);
  }
  const std::int64_t before = log.high_watermark();
  if (!followers_in_sync) {
    log.set_high_watermark_follows_end(true);
  } else {
    log.set_high_watermark_follows_end(false);
    log.advance_high_watermark(lowest);
  }
  if (log.high_watermark() != before) notifier_.notify(log);
}

void ReplicationController::set_in_sync(StoredTopic& topic, std::int32_t partition,
                                        ReplicaState& replica, bool in_sync) {
  if (replica.in_sync == in_sync) return;
  replica.in_sync = in_sync;
  if (in_sync) replica.caught_up_ms = now_ms_();
  if (!observers_.empty()) {
    const std::vector<std::int32_t> isr =
        topic.partitions[static_cast<std::size_t>(partition)].replicas().isr_nodes();
    for (ReplicationObserver* observer : observers_) {
      observer->on_isr_changed(topic, partition, isr, !in_sync);
    }
  }
}

void ReplicationController::install_leader(StoredTopic& topic, std::int32_t partition,
                                           std::int32_t node, bool unclean) {
  BatchLog& log = topic.partitions[static_cast<std::size_t>(partition)];
  PartitionReplicas& replicas = log.replicas();
  std::int64_t lost = 0;
  if (node != PartitionReplicas::kNoLeader) {
    ReplicaState* leader = replicas.find(node);
    const std::int64_t old_leader = replicas.leader();
    // The old leader's own log end is the log's; the new leader has what it fetched.
    if (old_leader != node && leader->log_end_offset < log.log_end_offset()) {
      const auto before = static_cast<std::int64_t>(log.memory_bytes());
      lost = log.truncate_to(leader->log_end_offset);
      cluster_.record_log_memory_change(static_cast<std::int64_t>(log.memory_bytes()) - before);
      replicas.truncate_epochs(log.log_end_offset());
    }
    for (ReplicaState& replica : replicas.replicas()) {
      replica.log_end_offset = std::min(replica.log_end_offset, log.log_end_offset());
    }
    leader->log_end_offset = log.log_end_offset();
    if (unclean) {
      // The new leader is the ISR: the others must catch up with what it has.
      for (ReplicaState& replica : replicas.replicas()) {
        if (replica.node != node) set_in_sync(topic, partition, replica, false);
      }
      set_in_sync(topic, partition, *leader, true);
    }
  }
  replicas.elect(node, log.log_end_offset());
  if (node != PartitionReplicas::kNoLeader) refresh_high_watermark(log);
  // Waiting produces and fetches look again: their leader changed.
  notifier_.notify(log);
  for (ReplicationObserver* observer : observers_) {
    observer->on_leader_elected(topic, partition, node, replicas.leader_epoch(), unclean, lost);
  }
}

void ReplicationController::elect(StoredTopic& topic, std::int32_t partition) {
  const PartitionReplicas& replicas =
      topic.partitions[static_cast<std::size_t>(partition)].replicas();
  for (const ReplicaState& replica : replicas.replicas()) {
    if (replica.in_sync && state(replica.node) == BrokerState::kRunning) {
      install_leader(topic, partition, replica.node, false);
      return;
    }
  }
  if (topic.config.unclean_leader_election) {
    for (const ReplicaState& replica : replicas.replicas()) {
      if (state(replica.node) == BrokerState::kRunning) {
        install_leader(topic, partition, replica.node, true);
        return;
      }
    }
  }
  if (replicas.leader() != PartitionReplicas::kNoLeader) {
    install_leader(topic, partition, PartitionReplicas::kNoLeader, false);
  }
}

void ReplicationController::fence(std::int32_t node, bool believes_it_leads) {
  for (const auto& [name, topic] : cluster_.topics()) {
    for (std::size_t p = 0; p < topic->partitions.size(); ++p) {
      BatchLog& log = topic->partitions[p];
      PartitionReplicas& replicas = log.replicas();
      ReplicaState* replica = replicas.find(node);
      if (replica == nullptr) continue;
      const auto partition = static_cast<std::int32_t>(p);
      const bool led = replicas.leader() == node;
      const std::size_t isr_it_had = replicas.isr_size();
      if (led) replica->log_end_offset = log.log_end_offset();
      // Kafka keeps the last in-sync replica in the ISR: it is the one that may come back.
      if (replica->in_sync && replicas.isr_size() > 1) {
        set_in_sync(*topic, partition, *replica, false);
      }
      if (!led) continue;
      if (believes_it_leads) {
        replicas.stale_leader() = StaleLeadership{.node = node,
                                                  .epoch = replicas.leader_epoch(),
                                                  .high_watermark = log.high_watermark(),
                                                  .log_end_offset = log.log_end_offset(),
                                                  .isr_size = isr_it_had};
      }
      elect(*topic, partition);
    }
  }
}

void ReplicationController::changed(std::int32_t node, BrokerState state) {
  for (ReplicationObserver* observer : observers_) observer->on_broker_state(node, state);
  for (const auto& listener : state_listeners_) listener(node, state);
}

ErrorCode ReplicationController::stop(std::int32_t node) {
  if (!is_broker(node)) return ErrorCode::kBrokerNotAvailable;
  if (state(node) == BrokerState::kStopped) return ErrorCode::kNone;
  const bool was_isolated = state(node) == BrokerState::kIsolated;
  brokers_[static_cast<std::size_t>(node)].state = BrokerState::kStopped;
  if (!was_isolated) fence(node, false);
  changed(node, BrokerState::kStopped);
  return ErrorCode::kNone;
}

ErrorCode ReplicationController::isolate(std::int32_t node) {
  if (!is_broker(node)) return ErrorCode::kBrokerNotAvailable;
  if (state(node) != BrokerState::kRunning) return ErrorCode::kNone;
  brokers_[static_cast<std::size_t>(node)].state = BrokerState::kIsolated;
  fence(node, true);
  changed(node, BrokerState::kIsolated);
  return ErrorCode::kNone;
}

ErrorCode ReplicationController::start(std::int32_t node) {
  if (!is_broker(node)) return ErrorCode::kBrokerNotAvailable;
  if (state(node) == BrokerState::kRunning) return ErrorCode::kNone;
  brokers_[static_cast<std::size_t>(node)].state = BrokerState::kRunning;
  for (const auto& [name, topic] : cluster_.topics()) {
    for (std::size_t p = 0; p < topic->partitions.size(); ++p) {
      BatchLog& log = topic->partitions[p];
      PartitionReplicas& replicas = log.replicas();
      ReplicaState* replica = replicas.find(node);
      if (replica == nullptr) continue;
      const auto partition = static_cast<std::int32_t>(p);
      if (replicas.stale_leader().node == node) {
        // It rejoins as a follower: what it acknowledged alone is truncated away.
        const std::int64_t lost = replicas.stale_leader().lost_records;
        replicas.stale_leader() = StaleLeadership{};
        // Its writes waiting for acks=all learn that it is a follower (NOT_LEADER_OR_FOLLOWER,
        // as Kafka completes a delayed produce when its broker becomes a follower).
        notifier_.notify(log);
        for (ReplicationObserver* observer : observers_) {
          if (lost == 0) break;
          observer->on_leader_elected(*topic, partition, replicas.leader(), replicas.leader_epoch(),
                                      false, lost);
        }
      }
      replica->log_end_offset = std::min(replica->log_end_offset, log.log_end_offset());
      if (replicas.leader() == PartitionReplicas::kNoLeader) elect(*topic, partition);
    }
  }
  changed(node, BrokerState::kRunning);
  return ErrorCode::kNone;
}

ErrorCode ReplicationController::set_replication_delay(std::int32_t node, std::int64_t delay_ms) {
  if (!is_broker(node)) return ErrorCode::kBrokerNotAvailable;
  brokers_[static_cast<std::size_t>(node)].replication_delay_ms =
      std::max<std::int64_t>(0, delay_ms);
  return ErrorCode::kNone;
}

void ReplicationController::tick() {
  if (settings_.brokers <= 1) return;
  const std::int64_t now = now_ms_();
  const auto& topics = cluster_.topics();
  // At most kPartitionsPerTick partitions a turn: the next tick goes on where this one stopped.
  std::size_t budget = kPartitionsPerTick;
  auto it = topics.lower_bound(cursor_topic_);
  if (it == topics.end() || it->first != cursor_topic_) cursor_partition_ = 0;
  for (; it != topics.end() && budget > 0; ++it, cursor_partition_ = 0) {
    StoredTopic& topic = *it->second;
    for (; cursor_partition_ < topic.partitions.size() && budget > 0; ++cursor_partition_) {
      --budget;
      tick_partition(topic, static_cast<std::int32_t>(cursor_partition_), now);
    }
    if (cursor_partition_ < topic.partitions.size()) {
      cursor_topic_ = it->first;
      return;
    }
  }
  cursor_topic_.clear();  // a whole round is done: start again from the first topic
  cursor_partition_ = 0;
}

void ReplicationController::tick_partition(StoredTopic& topic, std::int32_t partition,
                                           std::int64_t now) {
  BatchLog& log = topic.partitions[static_cast<std::size_t>(partition)];
  PartitionReplicas& replicas = log.replicas();
  if (!replicas.has_followers() || replicas.leader() == PartitionReplicas::kNoLeader) return;
  const std::int64_t end = log.log_end_offset();
  for (ReplicaState& replica : replicas.replicas()) {
    if (replica.node == replicas.leader()) continue;
    const BrokerStatus& status = brokers_[static_cast<std::size_t>(replica.node)];
    if (status.state == BrokerState::kRunning &&
        now - replica.last_fetch_ms >= status.replication_delay_ms) {
      replica.log_end_offset = end;
      replica.caught_up_ms = now;
      replica.last_fetch_ms = now;
    }
    // A follower that fetches at once has everything the leader appended (on_append()).
    const bool lagging = !fetches_at_once(replica.node) &&
                         now - replica.caught_up_ms > settings_.replica_lag_time_max_ms;
    if (replica.in_sync && lagging) {
      set_in_sync(topic, partition, replica, false);
    } else if (!replica.in_sync && status.state == BrokerState::kRunning &&
               replica.log_end_offset >= log.high_watermark() &&
               replica.log_end_offset >= replicas.epochs().back().start_offset) {
      set_in_sync(topic, partition, replica, true);
    }
  }
  if (!complete_reassignment(topic, partition)) refresh_high_watermark(log);
}

ErrorCode ReplicationController::elect_preferred(StoredTopic& topic, std::int32_t partition) {
  PartitionReplicas& replicas = topic.partitions[static_cast<std::size_t>(partition)].replicas();
  const ReplicaState& preferred = replicas.replicas().front();
  if (replicas.leader() == preferred.node) return ErrorCode::kElectionNotNeeded;
  if (!preferred.in_sync || state(preferred.node) != BrokerState::kRunning) {
    return ErrorCode::kPreferredLeaderNotAvailable;
  }
  install_leader(topic, partition, preferred.node, false);
  return ErrorCode::kNone;
}

ErrorCode ReplicationController::elect_unclean(StoredTopic& topic, std::int32_t partition) {
  const PartitionReplicas& replicas =
      topic.partitions[static_cast<std::size_t>(partition)].replicas();
  if (replicas.leader() != PartitionReplicas::kNoLeader) return ErrorCode::kElectionNotNeeded;
  for (const ReplicaState& replica : replicas.replicas()) {
    if (state(replica.node) == BrokerState::kRunning) {
      install_leader(topic, partition, replica.node, !replica.in_sync);
      return ErrorCode::kNone;
    }
  }
  return ErrorCode::kEligibleLeadersNotAvailable;
}

ErrorCode ReplicationController::check_target(const StoredTopic& topic, std::int32_t partition,
                                              std::span<const std::int32_t> target,
                                              std::string& reason) const {
  if (target.empty()) {
    reason = "the target replica list of " + partition_name(topic, partition) +
             " is empty: name at least one broker";
    return ErrorCode::kInvalidReplicaAssignment;
  }
  if (std::cmp_greater(target.size(), settings_.brokers)) {
    // Some broker is named twice or does not exist; say so without looking at them all.
    reason = std::to_string(target.size()) + " target replicas named for " +
             partition_name(topic, partition) + ", but the cluster has " +
             std::to_string(settings_.brokers) + " brokers: name each broker at most once";
    return ErrorCode::kInvalidReplicaAssignment;
  }
  for (std::size_t i = 0; i < target.size(); ++i) {
    if (!is_broker(target[i])) {
      reason = "broker " + std::to_string(target[i]) + " does not exist: the node ids are 0 to " +
               std::to_string(settings_.brokers - 1);
      return ErrorCode::kInvalidReplicaAssignment;
    }
    if (contains(target.first(i), target[i])) {
      reason = "broker " + std::to_string(target[i]) +
               " is named twice in the target replicas: name each replica once";
      return ErrorCode::kInvalidReplicaAssignment;
    }
  }
  return ErrorCode::kNone;
}

ErrorCode ReplicationController::reassign(StoredTopic& topic, std::int32_t partition,
                                          std::span<const std::int32_t> target, std::string& reason,
                                          ReplicationFactorChange factor) {
  if (const ErrorCode error = check_target(topic, partition, target, reason);
      error != ErrorCode::kNone) {
    return error;
  }
  BatchLog& log = topic.partitions[static_cast<std::size_t>(partition)];
  PartitionReplicas& replicas = log.replicas();
  // The replication factor the partition has, or is moving to (KIP-860 compares with it).
  const std::size_t current_factor = replicas.reassignment().has_value()
                                         ? replicas.reassignment()->target.size()
                                         : replicas.replicas().size();
  if (factor == ReplicationFactorChange::kRefused && target.size() != current_factor) {
    reason = "the replication factor of " + partition_name(topic, partition) +
             " would change from " + std::to_string(current_factor) + " to " +
             std::to_string(target.size()) +
             ", and the request does not allow that (allow_replication_factor_change false): "
             "name " +
             std::to_string(current_factor) + " target replicas";
    return ErrorCode::kInvalidReplicationFactor;
  }
  std::vector<std::int32_t> original = replicas.replica_nodes();
  if (replicas.reassignment().has_value()) {
    // A new target replaces the move in progress: it starts from the replicas before it, and
    // the replicas that move added and this one does not want leave now.
    const PartitionReassignment previous = *replicas.reassignment();
    original = previous.original;
    std::vector<std::int32_t> dropped;
    for (const std::int32_t node : previous.adding) {
      if (!contains(target, node)) dropped.push_back(node);
    }
    replicas.set_reassignment(std::nullopt);
    remove_replicas(topic, partition, dropped);
  }
  ReassignmentPlan plan = plan_reassignment(original, target);
  const std::int64_t now = now_ms_();
  for (const std::int32_t node : plan.replicas) {
    if (replicas.find(node) == nullptr) replicas.add_replica(node, log.log_start_offset(), now);
  }
  replicas.reorder(plan.replicas);
  reassignment_step(topic, partition, ReassignmentStep::kStarted, plan.change);
  if (plan.change.adding.empty() && plan.change.removing.empty()) {
    // The targets are the replicas: only their order changed, and that is done.
    reassignment_step(topic, partition, ReassignmentStep::kCompleted, plan.change);
    return ErrorCode::kNone;
  }
  replicas.set_reassignment(std::move(plan.change));
  complete_reassignment(topic, partition);
  return ErrorCode::kNone;
}

ErrorCode ReplicationController::cancel_reassignment(StoredTopic& topic, std::int32_t partition,
                                                     std::string& reason) {
  PartitionReplicas& replicas = topic.partitions[static_cast<std::size_t>(partition)].replicas();
  if (!replicas.reassignment().has_value()) {
    reason = "no reassignment of " + partition_name(topic, partition) +
             " is in progress: there is nothing to cancel";
    return ErrorCode::kNoReassignmentInProgress;
  }
  const PartitionReassignment reassignment = *replicas.reassignment();
  if (contains(reassignment.adding, replicas.leader())) {
    bool can_lead = false;
    for (const ReplicaState& replica : replicas.replicas()) {
      if (contains(reassignment.adding, replica.node) ||
          state(replica.node) != BrokerState::kRunning) {
        continue;
      }
      if (replica.in_sync || topic.config.unclean_leader_election) can_lead = true;
    }
    if (!can_lead) {
      reason = "cancelling the reassignment of " + partition_name(topic, partition) +
               " needs a leader among its original replicas, and none is running and in sync "
               "(an unclean election would lose records): start one, or let the reassignment "
               "complete";
      return ErrorCode::kInvalidReplicaAssignment;
    }
  }
  std::vector<std::int32_t> order = reassignment.original;
  order.insert(order.end(), reassignment.adding.begin(), reassignment.adding.end());
  replicas.set_reassignment(std::nullopt);
  replicas.reorder(order);
  remove_replicas(topic, partition, reassignment.adding);
  reassignment_step(topic, partition, ReassignmentStep::kCancelled, reassignment);
  return ErrorCode::kNone;
}

bool ReplicationController::complete_reassignment(StoredTopic& topic, std::int32_t partition) {
  PartitionReplicas& replicas = topic.partitions[static_cast<std::size_t>(partition)].replicas();
  if (!replicas.reassignment().has_value()) return false;
  const PartitionReassignment& pending = *replicas.reassignment();
  for (const ReplicaState& replica : replicas.replicas()) {
    if (!contains(pending.removing, replica.node) && !replica.in_sync) return false;
  }
  const PartitionReassignment reassignment = pending;  // the observers hear it once it ended
  replicas.set_reassignment(std::nullopt);
  remove_replicas(topic, partition, reassignment.removing);
  reassignment_step(topic, partition, ReassignmentStep::kCompleted, reassignment);
  return true;
}

void ReplicationController::reassignment_step(const StoredTopic& topic, std::int32_t partition,
                                              ReassignmentStep step,
                                              const PartitionReassignment& reassignment) {
  if (observers_.empty()) return;
  const std::vector<std::int32_t> replicas =
      topic.partitions[static_cast<std::size_t>(partition)].replicas().replica_nodes();
  for (ReplicationObserver* observer : observers_) {
    observer->on_reassignment(topic, partition, step, reassignment, replicas);
  }
}

void ReplicationController::remove_replicas(StoredTopic& topic, std::int32_t partition,
                                            std::span<const std::int32_t> nodes) {
  BatchLog& log = topic.partitions[static_cast<std::size_t>(partition)];
  PartitionReplicas& replicas = log.replicas();
  const bool leader_leaves = contains(nodes, replicas.leader());
  bool isr_shrunk = false;
  for (const std::int32_t node : nodes) {
    const ReplicaState* replica = replicas.find(node);
    if (replica == nullptr) continue;
    isr_shrunk = isr_shrunk || replica->in_sync;
    // An isolated broker that believed it led is no replica any more: it leads nothing.
    if (replicas.stale_leader().node == node) replicas.stale_leader() = StaleLeadership{};
    replicas.remove_replica(node);
  }
  if (isr_shrunk && !observers_.empty()) {
    const std::vector<std::int32_t> isr = replicas.isr_nodes();
    for (ReplicationObserver* observer : observers_) {
      observer->on_isr_changed(topic, partition, isr, true);
    }
  }
  if (leader_leaves) {
    elect(topic, partition);
  } else {
    refresh_high_watermark(log);
  }
}

}  // namespace kgroups::broker
