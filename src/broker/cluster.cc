// SPDX-License-Identifier: Apache-2.0
#include "broker/cluster.h"

#include <utility>

namespace kgroups::broker {

using protocol::ErrorCode;

Cluster::Cluster(std::int32_t default_partitions, bool auto_create)
    : default_partitions_(default_partitions), auto_create_(auto_create) {}

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
  if (partitions < 1) return ErrorCode::kInvalidPartitions;
  if (topics_.find(name) != topics_.end()) return ErrorCode::kTopicAlreadyExists;
  return ErrorCode::kNone;
}

ErrorCode Cluster::create_topic(std::string_view name, std::int32_t partitions) {
  const ErrorCode check = check_new_topic(name, partitions);
  if (check != ErrorCode::kNone) return check;
  auto topic = std::make_unique<Topic>();
  topic->name = std::string(name);
  topic->partitions.resize(static_cast<std::size_t>(partitions));
  topics_.emplace(topic->name, std::move(topic));
  return ErrorCode::kNone;
}

Topic* Cluster::find_topic(std::string_view name) {
  const auto it = topics_.find(name);
  return it == topics_.end() ? nullptr : it->second.get();
}

const Topic* Cluster::find_topic(std::string_view name) const {
  const auto it = topics_.find(name);
  return it == topics_.end() ? nullptr : it->second.get();
}

Topic* Cluster::find_or_create_topic(std::string_view name) {
  if (Topic* topic = find_topic(name)) return topic;
  if (!auto_create_ || create_topic(name, default_partitions_) != ErrorCode::kNone) return nullptr;
  return find_topic(name);
}

BatchLog* Cluster::find_partition(std::string_view name, std::int32_t partition) {
  Topic* topic = find_topic(name);
  if (topic == nullptr || partition < 0 ||
      static_cast<std::size_t>(partition) >= topic->partitions.size()) {
    return nullptr;
  }
  return &topic->partitions[static_cast<std::size_t>(partition)];
}

}  // namespace kgroups::broker
