// SPDX-License-Identifier: Apache-2.0
//
// Cluster: the broker's topics, each a fixed number of partitions, each partition a BatchLog.
// Topics are created at start-up (seeds), by CreateTopics, or on first use (auto-creation by
// Metadata and Produce, when enabled) with the default partition count. Topics are never
// deleted and never change their partition count, so Topic and BatchLog pointers stay valid
// while the Cluster is alive.
// Not thread-safe: the broker's single network thread owns the Cluster.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "broker/batch_log.h"
#include "protocol/error_code.h"

namespace kgroups::broker {

struct Topic {
  std::string name;
  std::vector<BatchLog> partitions;  // index = partition id; size >= 1, never changes
};

class Cluster {
 public:
  // `default_partitions` (>= 1) is the partition count of auto-created topics;
  // `auto_create` says whether unknown topics are created on first use.
  Cluster(std::int32_t default_partitions, bool auto_create);

  // Creates topic `name` with `partitions` partitions. Returns kNone on success,
  // kInvalidTopicException if the name is not a legal Kafka topic name,
  // kInvalidPartitions if partitions < 1, or kTopicAlreadyExists; only kNone creates anything.
  protocol::ErrorCode create_topic(std::string_view name, std::int32_t partitions);

  // Checks what create_topic() would return, without creating anything.
  [[nodiscard]] protocol::ErrorCode check_new_topic(std::string_view name,
                                                    std::int32_t partitions) const;

  // The topic called `name`, or nullptr.
  Topic* find_topic(std::string_view name);
  [[nodiscard]] const Topic* find_topic(std::string_view name) const;

  // The topic called `name`, creating it with the default partition count if it is unknown
  // and auto-creation is on. nullptr if it does not exist and cannot be created (auto-creation
  // off or an illegal name).
  Topic* find_or_create_topic(std::string_view name);

  // Partition `partition` of topic `name`, or nullptr if either does not exist.
  BatchLog* find_partition(std::string_view name, std::int32_t partition);

  // All topics, ordered by name.
  [[nodiscard]] const std::map<std::string, std::unique_ptr<Topic>, std::less<>>& topics() const {
    return topics_;
  }

  [[nodiscard]] std::int32_t default_partitions() const { return default_partitions_; }
  [[nodiscard]] bool auto_create() const { return auto_create_; }

  // Whether `name` is a legal Kafka topic name: 1-249 characters of [a-zA-Z0-9._-], and
  // neither "." nor "..".
  static bool is_valid_topic_name(std::string_view name);

 private:
  std::int32_t default_partitions_;
  bool auto_create_;
  std::map<std::string, std::unique_ptr<Topic>, std::less<>> topics_;
};

}  // namespace kgroups::broker
