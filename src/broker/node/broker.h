// SPDX-License-Identifier: Apache-2.0
//
// Broker: the state every request handler works on — the configuration (with the advertised
// address resolved once the listener is bound), the memory plan and the byte budgets of the
// network buffers, the topics (Cluster), the notifier that wakes long-polling fetches, Fetch's
// service with its fetch sessions, the group coordinator, and the event log of what happens
// to groups and topics (with the records delivered to a group again, from ReplayTracker).
//
// Threading model: the whole broker runs on ONE thread, the thread running its
// asio::io_context. The acceptor, every connection's coroutines, every handler and all state
// live there, so no state is locked. A handler runs until its first co_await without
// interruption; only Fetch suspends (long polling), and it re-reads state after waking.
// Not thread-safe: touch a Broker only from its io_context's thread.
#pragma once

#include <memory>
#include <optional>
#include <string_view>
#include <unordered_set>

#include "broker/config/broker_config.h"
#include "broker/config/memory_plan.h"
#include "broker/coordinator/group_observer_list.h"
#include "broker/events/event_log.h"
#include "broker/events/event_recorder.h"
#include "broker/events/replay_tracker.h"
#include "broker/faults/fault_injector.h"
#include "broker/groups/cluster_topic_catalog.h"
#include "broker/groups/coordinator_service.h"
#include "broker/groups/coordinator_topic.h"
#include "broker/node/access_control.h"
#include "broker/node/broker_metrics.h"
#include "broker/runtime/byte_budget.h"
#include "broker/runtime/memory_waiters.h"
#include "broker/services/fetch_service.h"
#include "broker/services/produce_service.h"
#include "broker/services/share_fetch_service.h"
#include "broker/storage/append_notifier.h"
#include "broker/storage/cluster.h"
#include "broker/storage/group_flush.h"
#include "broker/storage/log_cleaner.h"
#include "broker/storage/log_directory.h"
#include "broker/storage/periodic_passes.h"
#include "broker/storage/producer_registry.h"
#include "broker/storage/replication_controller.h"
#include "broker/transactions/producer_writes.h"
#include "broker/transactions/transaction_coordinator.h"
#include "protocol/record_validator.h"

namespace kgroups::broker {

class Broker {
 public:
  // Resolves the memory plan of `config` against the machine's memory (or `machine_bytes`
  // when given) and creates the seed topics. Throws
  // std::invalid_argument saying what to change if the plan does not fit, or naming the seed
  // if one is invalid or repeated; then creates nothing.
  explicit Broker(BrokerConfig config, std::int64_t machine_bytes = 0);
  ~Broker();

  Broker(const Broker&) = delete;
  Broker& operator=(const Broker&) = delete;

  // Starts the broker's own timers (retention by time, log compaction, the groups' expiries,
  // transaction timeouts, and with --log-dirs the flush scheduler and checkpoints) on
  // `executor`, the io_context that runs the connections.
  void start(const asio::any_io_executor& executor) {
    executor_ = executor;
    if (config_.brokers > 1) replication_timer_.start(executor);
    if (log_directory_ != nullptr) {
      group_flush_.start(executor);
      flush_timer_.start(executor);
      checkpoint_timer_.start(executor);
    }
    retention_timer_.start(executor);
    log_cleaner_timer_.start(executor);
    groups_.start(executor);
    transaction_timer_.start(executor);
  }

  // DeleteTopics' work: wakes the fetches long-polling its partitions (they look their
  // partitions up again and answer UNKNOWN_TOPIC_OR_PARTITION), forgets every group's
  // committed offsets of it, then deletes it from the cluster. Returns whether it existed.
  bool delete_topic(std::string_view name);

  // A clean stop with --log-dirs: flushes every log, closes the active segments and writes
  // the checkpoints (LogDirectory::close), so the next start has nothing to recover.
  void close_log_directory();
  // The log directory (--log-dirs), or nullptr when logs are in memory.
  [[nodiscard]] const LogDirectory* log_directory() const { return log_directory_.get(); }

  [[nodiscard]] const BrokerConfig& config() const { return config_; }
  [[nodiscard]] const MemoryPlan& memory_plan() const { return memory_plan_; }
  // Sets the address Metadata gives clients for broker `node` (0 when not given) on its
  // listener `listener` (the index in config().listeners' lists), the host and port they
  // should connect to.
  void set_advertised_address(std::string host, std::uint16_t port) {
    set_advertised_address(0, std::move(host), port);
  }
  void set_advertised_address(std::int32_t node, std::string host, std::uint16_t port,
                              std::size_t listener = 0);
  struct NodeAddress {
    std::string host;
    std::uint16_t port = 0;
  };
  // The address clients of listener `listener` reach broker `node` at
  // (0 <= node < config().brokers).
  [[nodiscard]] const NodeAddress& node_address(std::int32_t node, std::size_t listener = 0) const {
    return addresses_.at(static_cast<std::size_t>(node)).at(listener);
  }
  // The users, the ACLs and the authorizer (SASL, --authorizer); handlers ask
  // access().allows() before they act.
  AccessControl& access() { return access_; }
  [[nodiscard]] const AccessControl& access() const { return access_; }
  // The broker that coordinates group `group_id` (or, with `transactional`, transactional id
  // `key`): the leader of its partition of __consumer_offsets (__transaction_state), the
  // partition Kafka picks (abs(Java hashCode) mod partitions); before that topic exists, the
  // controller. -1 when no broker can (the partition has no leader, or none runs).
  [[nodiscard]] std::int32_t coordinator_for(std::string_view key,
                                             bool transactional = false) const;

  // Whether the new leader of group `group_id`'s __consumer_offsets partition (with
  // `transactional`, of transactional id `key`'s __transaction_state partition) is still
  // loading it (the coordinator's APIs answer COORDINATOR_LOAD_IN_PROGRESS meanwhile).
  [[nodiscard]] bool coordinator_loading(std::string_view key, bool transactional = false) const;

  // The brokers of the cluster: which run, who leads each partition, the ISR (--brokers).
  ReplicationController& replication() { return replication_; }
  [[nodiscard]] const ReplicationController& replication() const { return replication_; }

  Cluster& cluster() { return cluster_; }
  // What happened to groups and topics: the newest --max-events events, and their
  // subscribers (the HTTP API's /v1/events).
  EventLog& events() { return events_; }
  // Which records each consumer group was delivered, to publish the records delivered again
  // (records_replayed events).
  ReplayTracker& replays() { return replays_; }
  // Charges the groups' share of --max-memory (CoordinatorService::try_hold_bytes), for what
  // other parts keep on groups' behalf (the replay tracker's marks, the playground's
  // delivered offsets) and for the ACLs (AclStore). The broker must outlive its users.
  MemoryCharge groups_memory_charge();
  AppendNotifier& append_notifier() { return append_notifier_; }
  // --log-dirs with flush.messages: Produce waits here for the flush of its partitions,
  // shared with every producer of the same turn (group commit).
  GroupFlush& group_flush() { return group_flush_; }
  CoordinatorService& groups() { return groups_; }
  // __consumer_offsets, where the coordinators write their records; ensure_created() makes it
  // on a group's first FindCoordinator.
  CoordinatorTopic& offsets_topic() { return offsets_topic_; }
  // __transaction_state, where the transaction coordinator writes its records;
  // ensure_created() makes it on the first FindCoordinator of a transactional id or the first
  // transactional InitProducerId.
  CoordinatorTopic& transaction_state_topic() { return transaction_state_topic_; }
  // Requests, errors, bytes and connections counted for GET /metrics.
  BrokerMetrics& metrics() { return metrics_; }
  // Fetch's work: fetch sessions (at most --max-fetch-sessions, holding at most
  // --max-partitions partitions together), byte limits and long polling.
  FetchService& fetches() { return fetches_; }
  // ShareFetch's and ShareAcknowledge's work (KIP-932): share sessions, acquisition, waits.
  ShareFetchService& share_fetches() { return share_fetches_; }
  // Produce's work: validation, auto-creation, appends, waking fetches.
  ProduceService& producer() { return producer_; }
  // The producer ids this broker issued (InitProducerId) and their per-partition state.
  ProducerRegistry& producer_ids() { return producer_ids_; }
  // Transactional ids and their transactions (InitProducerId with a transactional id,
  // AddPartitionsToTxn, AddOffsetsToTxn, TxnOffsetCommit, EndTxn).
  TransactionCoordinator& transactions() { return transactions_; }
  // The faults armed through the control endpoint (POST /v1/faults), which the connections
  // and handlers consult for every request.
  FaultInjector& faults() { return faults_; }
  // Validates Produce's record batches (its decompression buffer is the plan's
  // uncompressed_batch_bytes).
  protocol::RecordValidator& record_validator() { return record_validator_; }
  // Bytes of requests being received by all connections (memory_plan().request_bytes).
  ByteBudget& request_memory() { return request_memory_; }
  // Bytes of responses queued and not yet sent, all connections (response_bytes).
  ByteBudget& response_memory() { return response_memory_; }

  // Coroutines waiting for request_memory() or response_memory() to have room: whoever gives
  // bytes back to one wakes its waiters (MemoryWaiters).
  MemoryWaiters& request_memory_waiters() { return request_memory_waiters_; }
  MemoryWaiters& response_memory_waiters() { return response_memory_waiters_; }

 private:
  BrokerConfig config_;
  BrokerMetrics metrics_;
  MemoryPlan memory_plan_;
  ByteBudget request_memory_;
  ByteBudget response_memory_;
  MemoryWaiters request_memory_waiters_;
  MemoryWaiters response_memory_waiters_;
  // Declared before what they observe (the Cluster, the coordinators), so they outlive them.
  EventLog events_;
  EventRecorder event_recorder_{events_};
  ReplayTracker replays_{events_, cluster_};  // reads cluster_ only when groups rebalance
  GroupObserverList group_observers_;         // event_recorder_, then replays_
  Cluster cluster_;
  AppendNotifier append_notifier_;
  ClusterTopicCatalog topic_catalog_{cluster_};  // the cluster as group coordinators see it
  CoordinatorTopic offsets_topic_{cluster_, append_notifier_,
                                  sized(kOffsetsTopic, config_.offsets_topic_num_partitions,
                                        config_.offsets_topic_replication_factor)};
  CoordinatorTopic transaction_state_topic_{
      cluster_, append_notifier_,
      sized(kTransactionStateTopic, config_.transaction_state_log_num_partitions,
            config_.transaction_state_log_replication_factor)};
  CoordinatorService groups_;     // consumer groups and committed offsets
  PeriodicTask retention_timer_;  // retention.ms
  LogCleaner log_cleaner_;        // compaction of cleanup.policy=compact topics
  PeriodicTask log_cleaner_timer_;
  protocol::RecordValidator record_validator_;
  FetchService fetches_{config_, cluster_, append_notifier_, response_memory_};
  ShareFetchService share_fetches_{config_, cluster_, append_notifier_, response_memory_, groups_};
  ProducerRegistry producer_ids_{static_cast<std::size_t>(config_.max_producer_ids),
                                 static_cast<std::size_t>(config_.max_producer_states)};
  ProducerWrites producer_writes_{cluster_, producer_ids_};
  SteadyClock transaction_clock_;
  TransactionCoordinator transactions_{
      TransactionLimits{
          .max_transactional_ids = static_cast<std::size_t>(config_.max_transactional_ids),
          .max_partitions_per_transaction =
              static_cast<std::size_t>(config_.max_partitions_per_transaction),
          .max_timeout_ms = config_.transaction_max_timeout_ms,
          .max_id_length = static_cast<std::size_t>(config_.max_id_length)},
      transaction_clock_,
      cluster_,
      producer_ids_,
      append_notifier_,
      groups_};
  // Transactions past their timeout are aborted (and their producers fenced) every 100 ms.
  PeriodicTask transaction_timer_{std::chrono::milliseconds(100), [this] {
                                    transactions_.abort_expired();
                                    return PassOutcome::kDone;
                                  }};
  FaultInjector faults_;
  ProduceService producer_{config_, cluster_, record_validator_, producer_writes_,
                           append_notifier_};
  std::vector<std::vector<NodeAddress>> addresses_;  // by node id, then listener
  AccessControl access_;
  // A coordinator moves with the leadership of its __consumer_offsets (__transaction_state)
  // partition: the new leader loads the partition (classic groups with their members and
  // generation, consumer groups without members, and every transactional id, are read back
  // from the log, so records an unclean election truncated away are gone, as in Kafka);
  // until the load ran, on the broker's next turn, its groups
  // (transactional ids) answer COORDINATOR_LOAD_IN_PROGRESS.
  struct CoordinatorMoves final : ReplicationObserver {
    explicit CoordinatorMoves(Broker& owner) : broker(owner) {}
    void on_leader_elected(const StoredTopic& topic, std::int32_t partition, std::int32_t leader,
                           std::int32_t epoch, bool unclean, std::int64_t lost_records) override;
    Broker& broker;
  };
  void load_offsets_partition_now(std::int32_t partition);
  void load_transaction_partition_now(std::int32_t partition);
  // --log-dirs: opens the directory and restores the topics and logs it holds.
  void open_log_directory();
  // After a restore: the coordinators load the groups and transactional ids of their logs.
  void load_restored_coordinators();
  CoordinatorMoves coordinator_moves_{*this};
  std::unordered_set<std::int32_t> loading_offsets_partitions_;
  std::unordered_set<std::int32_t> loading_transaction_partitions_;
  std::optional<asio::any_io_executor> executor_;
  ReplicationController replication_;
  // The replica fetchers and the ISR checks of --brokers N, every 20 ms.
  PeriodicTask replication_timer_{std::chrono::milliseconds(20), [this] {
                                    replication_.tick();
                                    return PassOutcome::kDone;
                                  }};
  std::unique_ptr<LogDirectory> log_directory_;  // --log-dirs; nullptr: logs in memory
  GroupFlush group_flush_{
      [this] { return log_directory_ != nullptr ? log_directory_->flush_requested() : 0; }};
  // flush.ms, and the topics' metadata saved when it changed.
  PeriodicTask flush_timer_{std::chrono::milliseconds(config_.log_flush_scheduler_interval_ms),
                            [this] {
                              log_directory_->flush_due(cluster_, wall_clock_ms());
                              return PassOutcome::kDone;
                            }};
  PeriodicTask checkpoint_timer_{
      std::chrono::milliseconds(config_.log_flush_offset_checkpoint_interval_ms), [this] {
        log_directory_->write_checkpoints(cluster_);
        return PassOutcome::kDone;
      }};
};

}  // namespace kgroups::broker
