// SPDX-License-Identifier: Apache-2.0
#include "broker/node/broker.h"

#include <asio/post.hpp>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <utility>

#include "broker/groups/coordinator_topic.h"
#include "broker/groups/offsets_loader.h"
#include "broker/runtime/logger.h"
#include "broker/storage/log_directory.h"
#include "broker/transactions/transaction_log_reader.h"
#include "protocol/error_code.h"

namespace kgroups::broker {
namespace {

ClusterConfig cluster_config(const BrokerConfig& config, const MemoryPlan& plan) {
  return ClusterConfig{
      .default_partitions = config.default_partitions,
      .auto_create = config.auto_create_topics,
      .topic_defaults = TopicConfig{.retention_ms = config.log_retention_ms,
                                    .retention_bytes = config.log_retention_bytes,
                                    .max_message_bytes = config.max_message_bytes,
                                    .min_insync_replicas = config.min_insync_replicas,
                                    .unclean_leader_election = config.unclean_leader_election,
                                    .flush_messages = config.log_flush_interval_messages,
                                    .flush_ms = config.log_flush_interval_ms},
      .max_topics = config.max_topics,
      .max_partitions = config.max_partitions,
      .max_partitions_per_topic = config.max_partitions_per_topic,
      .log_memory_bytes = plan.log_bytes,
      .brokers = config.brokers,
      .default_replication_factor = config.default_replication_factor,
  };
}

CoordinatorConfig coordinator_config(const BrokerConfig& config, const MemoryPlan& plan) {
  CoordinatorConfig coordinator;
  coordinator.min_session_timeout_ms = config.group_min_session_timeout_ms;
  coordinator.max_session_timeout_ms = config.group_max_session_timeout_ms;
  coordinator.initial_rebalance_delay_ms = config.initial_rebalance_delay_ms;
  coordinator.max_groups = static_cast<std::size_t>(config.max_groups);
  coordinator.max_group_size = static_cast<std::size_t>(config.group_max_size);
  coordinator.max_id_length = static_cast<std::size_t>(config.max_id_length);
  coordinator.max_group_metadata_bytes = static_cast<std::size_t>(config.max_group_metadata_bytes);
  coordinator.offset_metadata_max_bytes =
      static_cast<std::size_t>(config.offset_metadata_max_bytes);
  coordinator.max_stored_bytes = static_cast<std::size_t>(plan.group_bytes);
  return coordinator;
}

ConsumerGroupConfig consumer_group_config(const BrokerConfig& config) {
  ConsumerGroupConfig consumer;
  consumer.session_timeout_ms = config.consumer_group_session_timeout_ms;
  consumer.heartbeat_interval_ms = config.consumer_group_heartbeat_interval_ms;
  consumer.max_groups = static_cast<std::size_t>(config.max_groups);
  consumer.max_group_size = static_cast<std::size_t>(config.group_max_size);
  consumer.max_id_length = static_cast<std::size_t>(config.max_id_length);
  consumer.offset_metadata_max_bytes = static_cast<std::size_t>(config.offset_metadata_max_bytes);
  return consumer;
}

ShareGroupConfig share_group_config(const BrokerConfig& config) {
  ShareGroupConfig share;
  share.settings.session_timeout_ms = config.share_group_session_timeout_ms;
  share.settings.heartbeat_interval_ms = config.share_group_heartbeat_interval_ms;
  share.settings.limits.record_lock_duration_ms = config.share_group_record_lock_duration_ms;
  share.settings.limits.delivery_count_limit = config.share_group_delivery_count_limit;
  share.settings.limits.partition_max_record_locks = config.share_group_partition_max_record_locks;
  share.max_groups = static_cast<std::size_t>(config.max_groups);
  share.max_members = static_cast<std::size_t>(config.share_group_max_size);
  share.max_id_length = static_cast<std::size_t>(config.max_id_length);
  return share;
}

}  // namespace

Broker::Broker(BrokerConfig config, std::int64_t machine_bytes)
    : config_(std::move(config)),
      memory_plan_(
          resolve_memory_plan(config_, machine_bytes > 0 ? machine_bytes : machine_memory_bytes())),
      request_memory_(memory_plan_.request_bytes),
      response_memory_(memory_plan_.response_bytes),
      events_(EventLogLimits{.max_events = static_cast<std::size_t>(config_.max_events),
                             .max_bytes = static_cast<std::size_t>(config_.max_event_bytes)}),
      cluster_(cluster_config(config_, memory_plan_)),
      groups_(
          coordinator_config(config_, memory_plan_), consumer_group_config(config_), topic_catalog_,
          config_.manual_clock ? CoordinatorClock::kManual : CoordinatorClock::kSteady,
          share_group_config(config_),
          [this](const TopicId& id,
                 std::int32_t partition) -> std::optional<std::pair<std::int64_t, std::int64_t>> {
            const StoredTopic* topic = cluster_.find_topic(id);
            if (topic == nullptr || partition < 0 ||
                static_cast<std::size_t>(partition) >= topic->partitions.size()) {
              return std::nullopt;
            }
            const BatchLog& log = topic->partitions[static_cast<std::size_t>(partition)];
            return std::pair(log.log_start_offset(), log.high_watermark());
          }),
      retention_timer_(std::chrono::milliseconds(config_.log_retention_check_interval_ms),
                       [this] { return retention_pass(cluster_); }),
      log_cleaner_(LogCleanerOptions{
          .bytes_per_pass = static_cast<std::size_t>(config_.log_cleaner_bytes_per_pass),
          .max_map_bytes = static_cast<std::size_t>(memory_plan_.cleaner_map_bytes),
          .max_batch_bytes = static_cast<std::size_t>(memory_plan_.cleaner_batch_bytes)}),
      log_cleaner_timer_(std::chrono::milliseconds(config_.log_cleaner_interval_ms),
                         [this] { return log_cleaner_pass(log_cleaner_, cluster_); }),
      record_validator_(protocol::RecordValidatorOptions{
          .max_uncompressed_bytes = static_cast<std::size_t>(memory_plan_.uncompressed_batch_bytes),
          .allow_producer_ids = true,
          .allow_transactions = true}),
      addresses_(
          static_cast<std::size_t>(std::max(config_.brokers, 1)),
          std::vector<NodeAddress>(config_.listeners.empty() ? 1 : config_.listeners.front().size(),
                                   NodeAddress{config_.advertised_host, config_.advertised_port})),
      access_(config_),
      replication_(cluster_, append_notifier_,
                   ReplicationSettings{.brokers = std::max(config_.brokers, 1),
                                       .replica_lag_time_max_ms = config_.replica_lag_time_max_ms},
                   [this] { return groups_.now_ms(); }) {
  if (config_.brokers < 1) {
    throw std::invalid_argument("--brokers must be at least 1, got " +
                                std::to_string(config_.brokers));
  }
  if (config_.default_replication_factor < 1 ||
      config_.default_replication_factor > config_.brokers) {
    throw std::invalid_argument("--default-replication-factor " +
                                std::to_string(config_.default_replication_factor) +
                                " must be between 1 and the number of brokers (--brokers " +
                                std::to_string(config_.brokers) + ")");
  }
  cluster_.set_replication(&replication_);
  replication_.set_observer(&event_recorder_);
  replication_.add_observer(&coordinator_moves_);
  if (config_.brokers > 1) {
    fetches_.set_replication(&replication_);
    share_fetches_.set_replication(&replication_);
    producer_.set_replication(&replication_);
  }
  if (config_.default_partitions < 1) {
    throw std::invalid_argument("default partitions must be at least 1, got " +
                                std::to_string(config_.default_partitions));
  }
  // A request frame is received whole, so it must fit in the requests' share.
  if (memory_plan_.request_bytes < config_.max_frame_bytes) {
    config_.max_frame_bytes = static_cast<std::int32_t>(memory_plan_.request_bytes);
  }
  if (config_.max_frame_bytes < config_.max_message_bytes) {
    throw std::invalid_argument(
        "requests of " + format_bytes(config_.max_frame_bytes) +
        " (--max-frame-bytes, at most --queued-max-request-bytes) cannot hold a batch of "
        "--max-message-bytes " +
        format_bytes(config_.max_message_bytes) +
        "; raise --queued-max-request-bytes or --max-memory, or lower --max-message-bytes");
  }
  // Validate every seed first, so that an invalid one leaves no topic behind.
  Cluster check(cluster_config(config_, memory_plan_));
  for (const SeedTopic& seed : config_.seed_topics) {
    const protocol::ErrorCode error = check.create_topic(seed.name, seed.partitions);
    if (error != protocol::ErrorCode::kNone) {
      throw std::invalid_argument("seed topic \"" + seed.name + ":" +
                                  std::to_string(seed.partitions) + "\" is not valid (" +
                                  std::string(protocol::error_name(error)) +
                                  "); use name:partitions with a legal topic name, each once");
    }
  }
  cluster_.set_observer(&event_recorder_);
  group_observers_.add(&event_recorder_);
  // The tracker's marks follow what groups do; at most a quarter of the share, so that
  // following replays never leaves the groups themselves without room.
  MemoryCharge marks = groups_memory_charge();
  marks.take = [this,
                bound = static_cast<std::size_t>(memory_plan_.group_bytes / 4)](std::size_t bytes) {
    return replays_.held_bytes() + bytes <= bound && groups_.try_hold_bytes(bytes);
  };
  replays_.set_memory_charge(std::move(marks));
  // The ACLs count in the groups' share too: a client with ALTER on the cluster grows them.
  access_.acls().set_memory_charge(groups_memory_charge());
  // So do the SASL users (AlterUserScramCredentials, PUT /v1/users); those of --sasl-users now.
  if (!access_.credentials().set_memory_charge(groups_memory_charge())) {
    throw std::invalid_argument(
        "--sasl-users: its " + std::to_string(access_.credentials().user_count()) + " users take " +
        std::to_string(access_.credentials().stored_bytes()) +
        " bytes, more than the groups' share of --max-memory has; raise --max-memory");
  }
  group_observers_.add(&replays_);
  groups_.set_observer(&group_observers_);
  groups_.set_offsets_topic(&offsets_topic_);
  transactions_.set_log(&transaction_state_topic_);
  fetches_.set_delivery_observer(&replays_);
  if (!config_.log_dirs.empty()) open_log_directory();
  for (const SeedTopic& seed : config_.seed_topics) {
    // After a restart the seeds may be there already, as they were left.
    if (cluster_.find_topic(seed.name) == nullptr) {
      (void)cluster_.create_topic(seed.name, seed.partitions);
    }
  }
  producer_writes_.set_transactions(&transactions_);
  if (log_directory_ != nullptr) load_restored_coordinators();
}

void Broker::open_log_directory() {
  log_directory_ =
      std::make_unique<LogDirectory>(LogDirectoryOptions{.path = config_.log_dirs,
                                                         .cluster_id = config_.cluster_id,
                                                         .node_id = std::max(config_.node_id, 0)});
  cluster_.set_log_directory(log_directory_.get());
  log_directory_->on_flush_requested([this] { group_flush_.schedule(); });
  const RecoveryReport report = log_directory_->restore(cluster_, producer_ids_);
  log_info(report.describe());
}

void Broker::load_restored_coordinators() {
  // The groups and transactional ids come back from their logs, as a coordinator that
  // takes over a partition loads it.
  for (const std::string_view name : {kOffsetsTopicName, kTransactionStateTopicName}) {
    const StoredTopic* topic = cluster_.find_topic(name);
    if (topic == nullptr) continue;
    const bool groups = name == kOffsetsTopicName;
    for (std::size_t p = 0; p < topic->partitions.size(); ++p) {
      if (topic->partitions[p].log_end_offset() == 0) continue;
      if (groups) {
        load_offsets_partition_now(static_cast<std::int32_t>(p));
      } else {
        load_transaction_partition_now(static_cast<std::int32_t>(p));
      }
    }
  }
}

void Broker::close_log_directory() {
  if (log_directory_ == nullptr) return;
  log_directory_->close(cluster_);
  log_info("log directory " + log_directory_->path().string() +
           ": every log flushed, segments closed, checkpoints written");
}

Broker::~Broker() {
  // The coordinators go first (members are destroyed in reverse order) and tell the tracker
  // of their groups as they go: it must not give bytes back to them then.
  replays_.set_memory_charge({});
}

MemoryCharge Broker::groups_memory_charge() {
  return MemoryCharge{.take = [this](std::size_t bytes) { return groups_.try_hold_bytes(bytes); },
                      .give_back = [this](std::size_t bytes) { groups_.release_bytes(bytes); }};
}

bool Broker::delete_topic(std::string_view name) {
  const StoredTopic* topic = cluster_.find_topic(name);
  if (topic == nullptr) return false;
  // The wakeups are posted: the fetches run after the topic is gone, and look again.
  for (const BatchLog& partition : topic->partitions) {
    append_notifier_.notify(partition);
    producer_ids_.forget_partition(partition.producers());
  }
  const std::string deleted = topic->name;  // `name` may view the topic's own name
  groups_.delete_topic_offsets(deleted);
  replays_.forget_topic(deleted);
  return cluster_.delete_topic(deleted);
}

std::int32_t Broker::coordinator_for(std::string_view key, bool transactional) const {
  const CoordinatorTopic& topic = transactional ? transaction_state_topic_ : offsets_topic_;
  const StoredTopic* stored = topic.find();
  if (stored == nullptr) return replication_.controller_id();
  const auto partition = static_cast<std::size_t>(topic.partition_for(key));
  const std::int32_t leader = stored->partitions[partition].replicas().leader();
  return leader >= 0 && replication_.state(leader) != BrokerState::kStopped ? leader : -1;
}

bool Broker::coordinator_loading(std::string_view key, bool transactional) const {
  const auto& loading =
      transactional ? loading_transaction_partitions_ : loading_offsets_partitions_;
  if (loading.empty()) return false;
  const CoordinatorTopic& topic = transactional ? transaction_state_topic_ : offsets_topic_;
  return topic.find() != nullptr && loading.contains(topic.partition_for(key));
}

void Broker::CoordinatorMoves::on_leader_elected(const StoredTopic& topic, std::int32_t partition,
                                                 std::int32_t leader, std::int32_t /*epoch*/,
                                                 bool /*unclean*/, std::int64_t /*lost_records*/) {
  const bool groups = topic.name == kOffsetsTopicName;
  if (leader < 0 || (!groups && topic.name != kTransactionStateTopicName)) return;
  // The keys of the partition now have this coordinator: clients find it by FindCoordinator.
  broker.events_.publish(
      "coordinator_moved", {},
      nlohmann::ordered_json{
          {groups ? "offsets_partition" : "transaction_state_partition", partition},
          {"coordinator", leader}});
  auto& loading =
      groups ? broker.loading_offsets_partitions_ : broker.loading_transaction_partitions_;
  if (!loading.insert(partition).second) return;
  const auto load = [owner = &broker, partition, groups] {
    if (groups) {
      owner->load_offsets_partition_now(partition);
    } else {
      owner->load_transaction_partition_now(partition);
    }
  };
  if (!broker.executor_) {
    load();
    return;
  }
  // The controller is in the middle of an election: load once it is done.
  asio::post(*broker.executor_, load);
}

void Broker::load_offsets_partition_now(std::int32_t partition) {
  loading_offsets_partitions_.erase(partition);
  const BatchLog* log = cluster_.find_partition(kOffsetsTopicName, partition);
  if (log == nullptr) return;
  const std::size_t unloaded = groups_.unload_partition(partition);
  const OffsetsLoadResult loaded = load_offsets_partition(*log, partition, groups_);
  log_info("coordinator of " + std::string(kOffsetsTopicName) + "[" + std::to_string(partition) +
           "] moved to broker " + std::to_string(log->replicas().leader()) + ": loaded " +
           std::to_string(loaded.groups) + " group(s) with " + std::to_string(loaded.members) +
           " member(s) and " + std::to_string(loaded.offsets) + " committed offset(s) from " +
           std::to_string(loaded.records) + " record(s)" +
           (unloaded > 0 ? " (" + std::to_string(unloaded) + " group(s) read back)" : ""));
}

void Broker::load_transaction_partition_now(std::int32_t partition) {
  loading_transaction_partitions_.erase(partition);
  const BatchLog* log = cluster_.find_partition(kTransactionStateTopicName, partition);
  if (log == nullptr) return;
  const TransactionLogRead read = read_transaction_log(*log);
  const TransactionLoadResult loaded = transactions_.load_partition(partition, read.transactions);
  log_info("transaction coordinator of " + std::string(kTransactionStateTopicName) + "[" +
           std::to_string(partition) + "] moved to broker " +
           std::to_string(log->replicas().leader()) + ": loaded " + std::to_string(loaded.ids) +
           " transactional id(s) from " + std::to_string(read.records) + " record(s)" +
           (loaded.completed > 0
                ? ", completed " + std::to_string(loaded.completed) + " prepared transaction(s)"
                : "") +
           (loaded.dropped > 0
                ? ", dropped " + std::to_string(loaded.dropped) + " id(s) the log does not hold"
                : ""));
}

void Broker::set_advertised_address(std::int32_t node, std::string host, std::uint16_t port,
                                    std::size_t listener) {
  if (node == 0 && listener == 0) {
    config_.advertised_host = host;
    config_.advertised_port = port;
  }
  addresses_.at(static_cast<std::size_t>(node)).at(listener) = NodeAddress{std::move(host), port};
}

}  // namespace kgroups::broker
