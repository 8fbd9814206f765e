// SPDX-License-Identifier: Apache-2.0
#include "broker/groups/coordinator_topic.h"

#include <algorithm>

#include <string>

#include "broker/groups/offsets_partition.h"
#include "broker/runtime/logger.h"
#include "protocol/record_batch_builder.h"

namespace kgroups::broker {

StoredTopic* CoordinatorTopic::ensure_created() {
  if (StoredTopic* topic = cluster_.find_topic(config_.name); topic != nullptr) return topic;
  TopicConfig config = cluster_.config().topic_defaults;
  config.cleanup_compact = true;
  config.cleanup_delete = false;
  // The replication factor, at most the brokers there are (Kafka refuses to create
  // the topic until enough brokers run; a test cluster is as large as it will get).
  TopicReplication replication;
  replication.replication_factor =
      std::min<std::int32_t>(config_.replication_factor, cluster_.config().brokers);
  const protocol::ErrorCode error =
      cluster_.create_topic(config_.name, config_.partitions, config, replication);
  if (error != protocol::ErrorCode::kNone) {
    if (!creation_failure_logged_) {
      creation_failure_logged_ = true;
      log_warn("cannot create " + std::string(config_.name) + " with " +
               std::to_string(config_.partitions) + " partitions (" +
               std::string(protocol::error_name(error)) + "); " +
               std::string(config_.kept_in_memory) +
               " are kept in memory only. Raise --max-topics or --max-partitions, or lower " +
               std::string(config_.partitions_flag));
    }
    return nullptr;
  }
  StoredTopic* topic = cluster_.find_topic(config_.name);
  topic->internal = true;
  cluster_.set_topic_config(*topic, config, TopicConfigValues{{"cleanup.policy", "compact"}});
  return topic;
}

std::int32_t CoordinatorTopic::partition_for(std::string_view key) const {
  const StoredTopic* topic = find();
  const std::int32_t count =
      topic == nullptr ? config_.partitions : static_cast<std::int32_t>(topic->partitions.size());
  return offsets_partition_for(key, count);
}

protocol::ErrorCode CoordinatorTopic::append(std::int32_t partition,
                                             const std::vector<CoordinatorTopicRecord>& records,
                                             std::int64_t timestamp_ms) {
  if (records.empty()) return protocol::ErrorCode::kNone;
  StoredTopic* topic = ensure_created();
  if (topic == nullptr) return protocol::ErrorCode::kCoordinatorNotAvailable;
  if (partition < 0 || static_cast<std::size_t>(partition) >= topic->partitions.size()) {
    return protocol::ErrorCode::kUnknownTopicOrPartition;
  }
  protocol::RecordBatchBuilder builder;
  for (const CoordinatorTopicRecord& record : records) {
    std::optional<protocol::ByteView> value;
    if (record.value) value = protocol::ByteView(*record.value);
    builder.add(protocol::ByteView(record.key), value, timestamp_ms);
  }
  const std::vector<std::uint8_t> batch = builder.build();
  const protocol::Result<std::int64_t> appended =
      cluster_.append(*topic, partition, batch, builder.record_count() - 1, timestamp_ms);
  if (!appended) return appended.error();
  notifier_.notify(topic->partitions[static_cast<std::size_t>(partition)]);
  return protocol::ErrorCode::kNone;
}

}  // namespace kgroups::broker
