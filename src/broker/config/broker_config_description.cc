// SPDX-License-Identifier: Apache-2.0
#include "broker/config/described_config.h"

#include <algorithm>
#include <string>

namespace kgroups::broker {
namespace {

struct BrokerConfigRow {
  std::string_view name;
  ConfigType type;
  std::string value;
  std::string_view kafka_default;
  std::string_view documentation;
};

std::string text(bool value) { return value ? "true" : "false"; }

}  // namespace

std::vector<DescribedConfig> describe_broker_configs(const BrokerConfig& config,
                                                     const DynamicBrokerConfig& dynamic) {
  using std::to_string;
  using enum ConfigType;
  const std::string listener =
      "PLAINTEXT://" + config.listen_host + ":" + to_string(config.listen_port);
  std::vector<BrokerConfigRow> rows{
      {"auto.create.topics.enable", kBoolean, text(config.auto_create_topics), "true",
       "Whether Metadata and Produce create unknown topics (--no-auto-create: no)."},
      {"broker.id", kInt, to_string(config.node_id), "-1", "This broker's id."},
      {"connections.max.idle.ms", kLong, to_string(config.connections_max_idle_ms), "600000",
       "Idle connections close after this long (--connections-max-idle-ms)."},
      {"default.replication.factor", kInt, "1", "1",
       "Replicas of new topics: always 1, kgroupsd is a single broker."},
      {"fetch.max.bytes", kInt, to_string(config.fetch_max_bytes), "57671680",
       "Record bytes in one Fetch response at most (--fetch-max-bytes)."},
      {"group.consumer.heartbeat.interval.ms", kInt,
       to_string(config.consumer_group_heartbeat_interval_ms), "5000",
       "Heartbeat interval of consumer-protocol groups."},
      {"group.consumer.session.timeout.ms", kInt,
       to_string(config.consumer_group_session_timeout_ms), "45000",
       "Session timeout of consumer-protocol groups."},
      {"group.share.delivery.count.limit", kInt, to_string(config.share_group_delivery_count_limit),
       "5",
       "Deliveries of a share group's record before it is archived "
       "(--group-share-delivery-count-limit)."},
      {"group.share.heartbeat.interval.ms", kInt,
       to_string(config.share_group_heartbeat_interval_ms), "5000",
       "Heartbeat interval of share-group members (--group-share-heartbeat-interval-ms)."},
      {"group.share.max.size", kInt, to_string(config.share_group_max_size), "200",
       "Members of one share group at most (--group-share-max-size)."},
      {"group.share.partition.max.record.locks", kInt,
       to_string(config.share_group_partition_max_record_locks), "2000",
       "Records in flight per share-partition (--group-share-partition-max-record-locks)."},
      {"group.share.record.lock.duration.ms", kInt,
       to_string(config.share_group_record_lock_duration_ms), "30000",
       "How long an acquired record stays locked to its member "
       "(--group-share-record-lock-duration-ms)."},
      {"group.share.session.timeout.ms", kInt, to_string(config.share_group_session_timeout_ms),
       "45000", "Session timeout of share-group members (--group-share-session-timeout-ms)."},
      {"group.initial.rebalance.delay.ms", kInt, to_string(config.initial_rebalance_delay_ms),
       "3000", "How long a new group's first rebalance waits for more members."},
      {"group.max.session.timeout.ms", kInt, to_string(config.group_max_session_timeout_ms),
       "1800000", "The longest session timeout a member may ask for."},
      {"group.max.size", kInt, to_string(config.group_max_size), "2147483647",
       "Members of one group at most (--group-max-size)."},
      {"group.min.session.timeout.ms", kInt, to_string(config.group_min_session_timeout_ms), "6000",
       "The shortest session timeout a member may ask for."},
      {"listeners", kString, listener, "PLAINTEXT://:9092", "Where the broker listens."},
      {"log.dirs", kString, config.log_dirs, "/tmp/kafka-logs",
       "Where partitions' logs are kept (--log-dirs); empty: in memory."},
      {"log.flush.interval.messages", kLong, to_string(config.log_flush_interval_messages),
       "9223372036854775807", "Default flush.messages of topics (--log-flush-interval-messages)."},
      {"log.flush.interval.ms", kLong, to_string(config.log_flush_interval_ms), "",
       "Default flush.ms of topics (--log-flush-interval-ms)."},
      {"log.retention.bytes", kLong, to_string(config.log_retention_bytes), "-1",
       "Default retention.bytes of topics (--log-retention-bytes)."},
      {"log.retention.check.interval.ms", kLong, to_string(config.log_retention_check_interval_ms),
       "300000", "How often retention by time runs (--log-retention-check-interval-ms)."},
      {"log.retention.ms", kLong, to_string(config.log_retention_ms), "604800000",
       "Default retention.ms of topics (--log-retention-ms)."},
      {"max.connections", kInt, to_string(config.max_connections), "2147483647",
       "Client connections at most (--max-connections)."},
      {"max.connections.per.ip", kInt, to_string(config.max_connections_per_ip), "2147483647",
       "Connections from one address at most (--max-connections-per-ip)."},
      {"message.max.bytes", kInt, to_string(config.max_message_bytes), "1048588",
       "Default max.message.bytes of topics (--max-message-bytes)."},
      {"node.id", kInt, to_string(config.node_id), "-1", "This broker's id."},
      {"offsets.topic.num.partitions", kInt, to_string(config.offsets_topic_num_partitions), "50",
       "Partitions of __consumer_offsets (--offsets-topic-num-partitions)."},
      {"offsets.topic.replication.factor", kShort,
       to_string(config.offsets_topic_replication_factor), "3",
       "Replication factor asked for __consumer_offsets (--offsets-topic-replication-factor)."},
      {"transaction.state.log.num.partitions", kInt,
       to_string(config.transaction_state_log_num_partitions), "50",
       "Partitions of __transaction_state (--transaction-state-log-num-partitions)."},
      {"transaction.state.log.replication.factor", kShort,
       to_string(config.transaction_state_log_replication_factor), "3",
       "Replication factor asked for __transaction_state "
       "(--transaction-state-log-replication-factor)."},
      {"num.partitions", kInt, to_string(config.default_partitions), "1",
       "Partitions of auto-created topics (--default-partitions)."},
      {"offset.metadata.max.bytes", kInt, to_string(config.offset_metadata_max_bytes), "4096",
       "Metadata of one committed offset at most (--offset-metadata-max-bytes)."},
      {"socket.request.max.bytes", kInt, to_string(config.max_frame_bytes), "104857600",
       "The largest request frame (--max-frame-bytes)."},
  };
  // The dynamic broker configs are described below, from the topic configs they set.
  std::erase_if(rows, [](const BrokerConfigRow& row) {
    return find_dynamic_broker_config(row.name) != nullptr;
  });
  std::vector<DescribedConfig> out;
  out.reserve(rows.size() + topic_config_catalog().size());
  for (DescribedConfig& topic_config : describe_topic_configs({}, dynamic, config.node_id)) {
    const TopicConfigDefinition* definition = find_topic_config(topic_config.name);
    if (find_dynamic_broker_config(definition->broker_synonym) == nullptr) continue;
    topic_config.name = definition->broker_synonym;
    out.push_back(std::move(topic_config));
  }
  for (BrokerConfigRow& row : rows) {
    DescribedConfig& described = out.emplace_back();
    described.name = row.name;
    described.type = row.type;
    described.read_only = true;
    described.documentation = row.documentation;
    described.source =
        row.value == row.kafka_default ? ConfigSource::kDefault : ConfigSource::kStaticBroker;
    described.synonyms.push_back(ConfigSynonym{row.name, row.value, described.source});
    described.value = std::move(row.value);
  }
  std::ranges::sort(out, {}, &DescribedConfig::name);
  return out;
}

std::vector<DescribedConfig> describe_default_broker_configs(const DynamicBrokerConfig& dynamic) {
  std::vector<DescribedConfig> out;
  for (const auto& [name, value] : dynamic.values(std::nullopt)) {
    const TopicConfigDefinition* definition = find_dynamic_broker_config(name);
    if (definition == nullptr) continue;
    DescribedConfig& described = out.emplace_back();
    described.name = definition->broker_synonym;
    described.type = definition->type;
    described.documentation = definition->documentation;
    described.value = value;
    described.source = ConfigSource::kDynamicDefaultBroker;
    described.synonyms.push_back(
        ConfigSynonym{definition->broker_synonym, value, ConfigSource::kDynamicDefaultBroker});
  }
  return out;
}

}  // namespace kgroups::broker
