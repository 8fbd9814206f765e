// SPDX-License-Identifier: Apache-2.0
#include "broker/storage/cluster.h"

#include <algorithm>
#include <system_error>
#include <unordered_set>
#include <utility>

#include "broker/config/memory_plan.h"
#include "broker/runtime/logger.h"
#include "broker/storage/log_directory.h"
#include "broker/storage/replica_placement.h"
#include "broker/storage/replication_controller.h"

namespace kgroups::broker {

using protocol::ErrorCode;

namespace {

// Segments small enough that retention.bytes can act in steps of about a quarter of it, and
// that the logs' memory share holds at least 64 of them (eviction then has room to act).
std::size_t segment_limit_for(const TopicConfig& config, std::int64_t log_memory_bytes) {
  std::int64_t limit =
      std::min(static_cast<std::int64_t>(BatchLog::kMaxSegmentBytes), log_memory_bytes / 64);
  if (config.retention_bytes > 0) limit = std::min(limit, config.retention_bytes / 4);
  limit = std::min<std::int64_t>(limit, config.segment_bytes);  // BatchLog keeps its minimum
  return static_cast<std::size_t>(std::max<std::int64_t>(limit, 0));
}

std::int64_t wall_clock_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

Cluster::Cluster(ClusterConfig config) : config_(config) {}

Cluster::Cluster(std::int32_t default_partitions, bool auto_create) {
  config_.default_partitions = default_partitions;
  config_.auto_create = auto_create;
}

bool Cluster::is_valid_topic_name(std::string_view name) {
  if (name.empty() || name.size() > 249 || name == "." || name == "..") return false;
  for (const char c : name) {
    const bool legal = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       c == '.' || c == '_' || c == '-';
    if (!legal) return false;
  }
  return true;
}

ErrorCode Cluster::check_new_topic(std::string_view name, std::int32_t partitions) const {
  if (!is_valid_topic_name(name)) return ErrorCode::kInvalidTopicException;
  if (partitions < 1 || partitions > config_.max_partitions_per_topic) {
    return ErrorCode::kInvalidPartitions;
  }
  if (topics_.find(name) != topics_.end()) return ErrorCode::kTopicAlreadyExists;
  if (std::cmp_greater_equal(topics_.size(), config_.max_topics) ||
      partition_count_ + partitions > config_.max_partitions) {
    return ErrorCode::kPolicyViolation;
  }
  return ErrorCode::kNone;
}

ErrorCode Cluster::check_replication(std::int32_t partitions, const TopicReplication& replication,
                                     std::string& reason) const {
  const ReplicaAssignment& assignment = replication.assignment;
  if (assignment.empty()) {
    const std::int32_t factor = replication.replication_factor == -1
                                    ? config_.default_replication_factor
                                    : replication.replication_factor;
    if (factor < 1) {
      reason =
          "Replication factor must be larger than 0, or -1 for the default "
          "(--default-replication-factor); got " +
          std::to_string(factor) + ".";
      return ErrorCode::kInvalidReplicationFactor;
    }
    if (factor > config_.brokers) {
      reason = "Replication factor: " + std::to_string(factor) +
               " larger than available brokers: " + std::to_string(config_.brokers) +
               "; start kgroupsd with --brokers " + std::to_string(factor) + " or more.";
      return ErrorCode::kInvalidReplicationFactor;
    }
    return ErrorCode::kNone;
  }
  if (std::cmp_not_equal(assignment.size(), partitions)) {
    reason = "The manual assignment names " + std::to_string(assignment.size()) +
             " partitions, not " + std::to_string(partitions) + ".";
    return ErrorCode::kInvalidReplicaAssignment;
  }
  for (const std::vector<std::int32_t>& replicas : assignment) {
    if (replicas.empty() || replicas.size() != assignment.front().size()) {
      reason =
          "Every partition of a manual assignment needs the same, non-zero number of "
          "replicas.";
      return ErrorCode::kInvalidReplicaAssignment;
    }
    for (std::size_t i = 0; i < replicas.size(); ++i) {
      if (replicas[i] < 0 || replicas[i] >= config_.brokers) {
        reason = "Unknown broker " + std::to_string(replicas[i]) + " in the assignment: node ids " +
                 "are 0 to " + std::to_string(config_.brokers - 1) + " (--brokers).";
        return ErrorCode::kInvalidReplicaAssignment;
      }
      if (std::find(replicas.begin(), replicas.begin() + static_cast<std::ptrdiff_t>(i),
                    replicas[i]) != replicas.begin() + static_cast<std::ptrdiff_t>(i)) {
        reason = "Broker " + std::to_string(replicas[i]) + " is named twice for one partition.";
        return ErrorCode::kInvalidReplicaAssignment;
      }
    }
  }
  return ErrorCode::kNone;
}

void Cluster::place(StoredTopic& topic, std::size_t first, std::int32_t replication_factor,
                    const ReplicaAssignment& assignment) {
  const auto count = static_cast<std::int32_t>(topic.partitions.size() - first);
  ReplicaAssignment placed = assignment;
  if (placed.empty()) {
    const auto start = static_cast<std::int32_t>(topic_id_random_() % 1000003);
    const auto shift = static_cast<std::int32_t>(topic_id_random_() % 1000003);
    placed = place_replicas(config_.brokers, count, replication_factor, start, shift,
                            static_cast<std::int32_t>(first));
  }
  for (std::size_t p = first; p < topic.partitions.size(); ++p) {
    topic.partitions[p].replicas().assign(placed[p - first], 0);
  }
  if (replication_ != nullptr) replication_->on_new_partitions(topic, first);
}

ErrorCode Cluster::create_topic(std::string_view name, std::int32_t partitions,
                                const std::optional<TopicConfig>& config,
                                const TopicReplication& replication) {
  const ErrorCode check = check_new_topic(name, partitions);
  if (check != ErrorCode::kNone) return check;
  std::string reason;
  const ErrorCode replication_error = check_replication(partitions, replication, reason);
  if (replication_error != ErrorCode::kNone) return replication_error;
  auto topic = std::make_unique<StoredTopic>();
  topic->name = std::string(name);
  topic->config = config.value_or(config_.topic_defaults);
  topic->partitions.resize(static_cast<std::size_t>(partitions));
  for (BatchLog& log : topic->partitions) log.set_released_segment_memory(released_);
  apply_segment_config(*topic);
  place(*topic, 0,
        replication.replication_factor == -1 ? config_.default_replication_factor
                                             : replication.replication_factor,
        replication.assignment);
  topic->id = new_topic_id();
  if (!attach_files(*topic, 0)) return ErrorCode::kKafkaStorageError;
  partition_count_ += partitions;
  ++metadata_version_;
  topics_by_id_.emplace(topic->id, topic.get());
  const StoredTopic& created = *topics_.emplace(topic->name, std::move(topic)).first->second;
  if (log_directory_ != nullptr) log_directory_->save_topics(*this);
  if (observer_ != nullptr) observer_->on_topic_created(created);
  return ErrorCode::kNone;
}

protocol::Uuid Cluster::new_topic_id() {
  protocol::Uuid id{};
  do {
    // A version-4 (random) UUID, as Kafka's Uuid.randomUuid(); never zero or already taken.
    for (std::size_t i = 0; i < id.size(); i += 8) {
      const std::uint64_t bits = topic_id_random_();
      for (std::size_t j = 0; j < 8; ++j) id[i + j] = static_cast<std::uint8_t>(bits >> (8 * j));
    }
    id[6] = static_cast<std::uint8_t>((id[6] & 0x0F) | 0x40);
    id[8] = static_cast<std::uint8_t>((id[8] & 0x3F) | 0x80);
  } while (topics_by_id_.contains(id));
  return id;
}

bool Cluster::attach_files(StoredTopic& topic, std::size_t first) {
  if (log_directory_ == nullptr) return true;
  try {
    log_directory_->add_partitions(topic, first);
    return true;
  } catch (const std::system_error& e) {
    log_error("cannot keep " + topic.name + " in the log directory: " + e.what());
    return false;
  }
}

StoredTopic* Cluster::restore_topic(std::string_view name, const protocol::Uuid& id,
                                    std::int32_t partitions, const TopicConfig& config,
                                    TopicConfigValues set_configs, bool internal,
                                    const ReplicaAssignment& assignment) {
  const ErrorCode check = check_new_topic(name, partitions);
  if (check != ErrorCode::kNone) {
    log_error("cannot restore topic " + std::string(name) + " (" + std::to_string(partitions) +
              " partitions): " + std::string(protocol::error_name(check)) +
              " (its folders are left as they are)");
    return nullptr;
  }
  TopicReplication replication{.replication_factor = -1, .assignment = assignment};
  std::string reason;
  if (assignment.empty() ||
      check_replication(partitions, replication, reason) != ErrorCode::kNone) {
    const std::size_t factor = assignment.empty() ? 1 : assignment.front().size();
    replication = TopicReplication{
        .replication_factor = static_cast<std::int32_t>(std::min<std::size_t>(
            std::max<std::size_t>(factor, 1), static_cast<std::size_t>(config_.brokers))),
        .assignment = {}};
  }
  auto topic = std::make_unique<StoredTopic>();
  topic->name = std::string(name);
  topic->config = config;
  topic->set_configs = std::move(set_configs);
  topic->internal = internal;
  topic->partitions.resize(static_cast<std::size_t>(partitions));
  for (BatchLog& log : topic->partitions) log.set_released_segment_memory(released_);
  place(*topic, 0, replication.replication_factor, replication.assignment);
  const bool zero = std::ranges::all_of(id, [](std::uint8_t byte) { return byte == 0; });
  topic->id = zero || topics_by_id_.contains(id) ? new_topic_id() : id;
  partition_count_ += partitions;
  ++metadata_version_;
  topics_by_id_.emplace(topic->id, topic.get());
  StoredTopic& restored = *topics_.emplace(topic->name, std::move(topic)).first->second;
  if (observer_ != nullptr) observer_->on_topic_created(restored);
  return &restored;
}

void Cluster::finish_restore(StoredTopic& topic) {
  apply_segment_config(topic);
  for (BatchLog& log : topic.partitions) {
    log_memory_used_ += static_cast<std::int64_t>(log.memory_bytes());
  }
  if (log_directory_ != nullptr) log_directory_->topics_changed();
}

void Cluster::set_topic_config(StoredTopic& topic, const TopicConfig& config,
                               TopicConfigValues values) {
  topic.config = config;
  topic.set_configs = std::move(values);
  if (log_directory_ != nullptr) log_directory_->topics_changed();
  apply_segment_config(topic);
  for (BatchLog& log : topic.partitions) {
    if (topic.config.cleanup_delete && topic.config.retention_bytes >= 0) {
      log_memory_used_ -=
          static_cast<std::int64_t>(log.drop_segments_beyond_size(topic.config.retention_bytes));
    }
  }
}

ErrorCode Cluster::check_new_partitions(const StoredTopic& topic, std::int32_t count) const {
  const auto current = static_cast<std::int64_t>(topic.partitions.size());
  if (count <= current || count > config_.max_partitions_per_topic) {
    return ErrorCode::kInvalidPartitions;
  }
  if (partition_count_ + (count - current) > config_.max_partitions) {
    return ErrorCode::kPolicyViolation;
  }
  return ErrorCode::kNone;
}

ErrorCode Cluster::add_partitions(StoredTopic& topic, std::int32_t count) {
  const ErrorCode check = check_new_partitions(topic, count);
  if (check != ErrorCode::kNone) return check;
  const auto added =
      static_cast<std::int64_t>(count) - static_cast<std::int64_t>(topic.partitions.size());
  const std::size_t first_new = topic.partitions.size();
  topic.partitions.resize(static_cast<std::size_t>(count));
  for (std::size_t p = first_new; p < topic.partitions.size(); ++p) {
    topic.partitions[p].set_released_segment_memory(released_);
  }
  apply_segment_config(topic);
  // New partitions get as many replicas as the first one has.
  place(topic, first_new,
        static_cast<std::int32_t>(topic.partitions[0].replicas().replicas().size()), {});
  if (!attach_files(topic, first_new)) {
    topic.partitions.resize(first_new);
    return ErrorCode::kKafkaStorageError;
  }
  partition_count_ += added;
  ++metadata_version_;
  return ErrorCode::kNone;
}

bool Cluster::delete_topic(std::string_view name) {
  const auto found = topics_.find(name);
  if (found == topics_.end()) return false;
  const StoredTopic& topic = *found->second;
  if (observer_ != nullptr) observer_->on_topic_deleted(topic);
  if (log_directory_ != nullptr) log_directory_->remove_topic(topic);
  std::unordered_set<const BatchLog*> logs;
  for (const BatchLog& log : topic.partitions) {
    logs.insert(&log);
    log_memory_used_ -= static_cast<std::int64_t>(log.memory_bytes());
  }
  std::erase_if(segments_by_age_,
                [&logs](const auto& entry) { return logs.contains(entry.second); });
  partition_count_ -= static_cast<std::int64_t>(topic.partitions.size());
  topics_by_id_.erase(topic.id);
  topics_.erase(found);
  ++metadata_version_;
  if (log_directory_ != nullptr) log_directory_->save_topics(*this);
  return true;
}

protocol::Result<std::int64_t> Cluster::delete_records(StoredTopic& topic, std::int32_t partition,
                                                       std::int64_t offset) {
  BatchLog& log = topic.partitions[static_cast<std::size_t>(partition)];
  if (offset == -1) offset = log.high_watermark();
  if (offset < 0 || offset > log.high_watermark()) return ErrorCode::kOffsetOutOfRange;
  log_memory_used_ -= static_cast<std::int64_t>(log.delete_records_before(offset));
  return log.log_start_offset();
}

void Cluster::apply_segment_config(StoredTopic& topic) const {
  std::size_t segment_limit = segment_limit_for(topic.config, config_.log_memory_bytes);
  std::size_t roll_bytes = 0;
  std::int64_t roll_ms = 0;
  if (topic.config.cleanup_compact) {
    // Compaction cleans closed segments only, so they close as Kafka's do; memory segments
    // are then never larger than a Kafka segment.
    roll_bytes = static_cast<std::size_t>(std::max(topic.config.segment_bytes, 1));
    roll_ms = topic.config.segment_ms;
    segment_limit = std::min(segment_limit, roll_bytes);
  }
  for (BatchLog& log : topic.partitions) {
    log.set_segment_limit(segment_limit);
    log.set_file_segment_limit(static_cast<std::size_t>(std::max(topic.config.segment_bytes, 1)));
    log.set_segment_roll(roll_bytes, roll_ms);
  }
}

void Cluster::record_log_memory_change(std::int64_t memory_delta) {
  log_memory_used_ += memory_delta;
}

const StoredTopic* Cluster::find_topic(const protocol::Uuid& id) const {
  const auto it = topics_by_id_.find(id);
  return it == topics_by_id_.end() ? nullptr : it->second;
}

StoredTopic* Cluster::find_topic(std::string_view name) {
  const auto it = topics_.find(name);
  return it == topics_.end() ? nullptr : it->second.get();
}

const StoredTopic* Cluster::find_topic(std::string_view name) const {
  const auto it = topics_.find(name);
  return it == topics_.end() ? nullptr : it->second.get();
}

StoredTopic* Cluster::find_or_create_topic(std::string_view name) {
  if (StoredTopic* topic = find_topic(name)) return topic;
  if (!config_.auto_create) return nullptr;
  const ErrorCode error = create_topic(name, config_.default_partitions);
  if (error == ErrorCode::kPolicyViolation) {
    log_warn("not auto-creating topic " + quote(name) + ": " + std::to_string(topics_.size()) +
             " topics and " + std::to_string(partition_count_) +
             " partitions exist (--max-topics " + std::to_string(config_.max_topics) +
             ", --max-partitions " + std::to_string(config_.max_partitions) + ")");
  }
  return error == ErrorCode::kNone ? find_topic(name) : nullptr;
}

std::int32_t Cluster::partition_count(std::string_view name) const {
  const StoredTopic* topic = find_topic(name);
  return topic == nullptr ? 0 : static_cast<std::int32_t>(topic->partitions.size());
}

BatchLog* Cluster::find_partition(std::string_view name, std::int32_t partition) {
  StoredTopic* topic = find_topic(name);
  if (topic == nullptr || partition < 0 ||
      static_cast<std::size_t>(partition) >= topic->partitions.size()) {
    return nullptr;
  }
  return &topic->partitions[static_cast<std::size_t>(partition)];
}

bool Cluster::make_room(std::int64_t needed) {
  while (log_memory_used() + needed > config_.log_memory_bytes && !segments_by_age_.empty()) {
    auto [sequence, log] = segments_by_age_.front();
    segments_by_age_.pop_front();
    if (log->first_segment_sequence() != sequence) continue;  // already dropped by retention
    const std::int64_t start_before = log->log_start_offset();
    const std::size_t freed = log->evict_oldest_segment();
    log_memory_used_ -= static_cast<std::int64_t>(freed);
    ++evicted_since_report_.segments;
    evicted_since_report_.memory_bytes += freed;
    if (log->log_start_offset() != start_before) ++evicted_since_report_.partitions;
  }
  report_evictions(false);
  return log_memory_used() + needed <= config_.log_memory_bytes;
}

std::string Cluster::pinned_note() const {
  if (released_->bytes() == 0) return {};
  return " (" + format_bytes(released_->bytes()) + " of it are " +
         std::to_string(released_->segments()) +
         " dropped segment(s) that unsent Fetch responses (or the log cleaner) still pin, "
         "until those are written or their connections close)";
}

void Cluster::report_evictions(bool force) {
  if (evicted_since_report_.segments == 0) return;
  const auto now = std::chrono::steady_clock::now();
  if (!force && now - last_eviction_report_ < std::chrono::seconds(1)) return;
  last_eviction_report_ = now;
  log_warn("records' memory share (" + format_bytes(config_.log_memory_bytes) +
           ") full: evicted the " + std::to_string(evicted_since_report_.segments) +
           " oldest segment(s), " +
           format_bytes(static_cast<std::int64_t>(evicted_since_report_.memory_bytes)) +
           ", moving the log start offset of " + std::to_string(evicted_since_report_.partitions) +
           " partition(s) (raise --max-memory or set retention to keep more)");
  evicted_since_report_ = {};
}

protocol::Result<std::int64_t> Cluster::append(StoredTopic& topic, std::int32_t partition,
                                               std::span<const std::uint8_t> batch,
                                               std::int32_t last_offset_delta,
                                               std::int64_t max_timestamp) {
  BatchLog& log = topic.partitions[static_cast<std::size_t>(partition)];
  // Evicting this log's own current segment makes the append need a new one: ask again
  // until the answer holds.
  const std::int64_t now_ms = wall_clock_ms();
  std::int64_t needed = 0;
  bool room = true;
  do {
    needed = static_cast<std::int64_t>(log.bytes_needed_to_append(batch.size(), now_ms));
    room = make_room(needed);
  } while (room &&
           needed != static_cast<std::int64_t>(log.bytes_needed_to_append(batch.size(), now_ms)));
  if (!room) {
    log_warn("cannot store a " + format_bytes(static_cast<std::int64_t>(batch.size())) +
             " batch in " + topic.name + "[" + std::to_string(partition) +
             "]: the records' memory share (" + format_bytes(config_.log_memory_bytes) +
             ") cannot hold it" + pinned_note() + "; raise --max-memory");
    return ErrorCode::kKafkaStorageError;
  }
  const std::uint64_t sequence = next_segment_sequence_;
  const std::size_t segments_before = log.segment_count();
  const auto memory_before = static_cast<std::int64_t>(log.memory_bytes());
  if (log_directory_ != nullptr) log_directory_->save_topics(*this);
  std::int64_t base_offset = 0;
  try {
    base_offset = log.append(batch, last_offset_delta, max_timestamp, now_ms, sequence,
                             topic.config.message_timestamp_type);
  } catch (const std::system_error& e) {
    report_storage_error(topic, partition, e);
    return ErrorCode::kKafkaStorageError;
  }
  if (log_directory_ != nullptr) {
    log_directory_->after_append(log, topic.config, std::int64_t{last_offset_delta} + 1, now_ms);
  }
  if (log.segment_count() != segments_before) {
    ++next_segment_sequence_;
    segments_by_age_.emplace_back(sequence, &log);
    // Drop stale entries once they are the majority, so the queue stays proportional to the
    // segments alive.
    if (segments_by_age_.size() > 1024 && segments_by_age_.size() % 1024 == 0) {
      std::erase_if(segments_by_age_, [](const auto& entry) {
        return entry.first < entry.second->first_segment_sequence();
      });
    }
  }
  log_memory_used_ += static_cast<std::int64_t>(log.memory_bytes()) - memory_before;
  if (topic.config.cleanup_delete && topic.config.retention_bytes >= 0) {
    log_memory_used_ -=
        static_cast<std::int64_t>(log.drop_segments_beyond_size(topic.config.retention_bytes));
  }
  if (replication_ != nullptr && log.replicas().has_followers()) {
    replication_->on_append(log, topic.internal);
  }
  return base_offset;
}

void Cluster::report_storage_error(const StoredTopic& topic, std::int32_t partition,
                                   const std::system_error& error) {
  const auto now = std::chrono::steady_clock::now();
  ++storage_errors_since_report_;
  if (now - last_storage_error_report_ < std::chrono::seconds(1)) return;
  last_storage_error_report_ = now;
  log_error("cannot store a batch in " + topic.name + "[" + std::to_string(partition) +
            "]: " + error.what() + " (" + std::to_string(storage_errors_since_report_) +
            " batch(es) refused with KAFKA_STORAGE_ERROR since the last such line; free space "
            "in the log directory and producers go on)");
  storage_errors_since_report_ = 0;
}

DroppedSegments Cluster::apply_time_retention(std::int64_t now_ms) {
  DroppedSegments dropped;
  for (auto& [name, topic] : topics_) {
    if (!topic->config.cleanup_delete || topic->config.retention_ms < 0) continue;
    const std::int64_t cutoff = now_ms - topic->config.retention_ms;
    for (BatchLog& log : topic->partitions) {
      const std::size_t segments_before = log.segment_count();
      const std::size_t freed = log.drop_segments_older_than(cutoff);
      if (log.segment_count() == segments_before) continue;
      dropped.segments += segments_before - log.segment_count();
      dropped.memory_bytes += freed;
      ++dropped.partitions;
      log_memory_used_ -= static_cast<std::int64_t>(freed);
    }
  }
  return dropped;
}

}  // namespace kgroups::broker
