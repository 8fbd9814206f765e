// SPDX-License-Identifier: Apache-2.0
#include "broker/coordinator/consumer_assignment.h"

namespace kgroups::broker {

std::vector<TopicPartitions> to_topic_partitions(const ConsumerAssignment& assignment) {
  std::vector<TopicPartitions> lists;
  lists.reserve(assignment.size());
  for (const auto& [topic_id, partitions] : assignment) {
    lists.push_back(TopicPartitions{topic_id, {partitions.begin(), partitions.end()}});
  }
  return lists;
}

ConsumerAssignment from_topic_partitions(const std::vector<TopicPartitions>& lists) {
  ConsumerAssignment assignment;
  for (const TopicPartitions& list : lists) {
    for (std::int32_t partition : list.partitions)
      add_partition(assignment, list.topic_id, partition);
  }
  return assignment;
}

std::size_t partition_count(const ConsumerAssignment& assignment) {
  std::size_t count = 0;
  for (const auto& [topic_id, partitions] : assignment) count += partitions.size();
  return count;
}

bool contains(const ConsumerAssignment& assignment, const TopicId& topic_id,
              std::int32_t partition) {
  auto topic = assignment.find(topic_id);
  return topic != assignment.end() && topic->second.contains(partition);
}

bool is_subset(const std::vector<TopicPartitions>& lists, const ConsumerAssignment& assignment) {
  for (const TopicPartitions& list : lists) {
    for (std::int32_t partition : list.partitions) {
      if (!contains(assignment, list.topic_id, partition)) return false;
    }
  }
  return true;
}

bool intersects(const std::vector<TopicPartitions>& lists, const ConsumerAssignment& assignment) {
  for (const TopicPartitions& list : lists) {
    for (std::int32_t partition : list.partitions) {
      if (contains(assignment, list.topic_id, partition)) return true;
    }
  }
  return false;
}

void add_partition(ConsumerAssignment& assignment, const TopicId& topic_id,
                   std::int32_t partition) {
  assignment[topic_id].insert(partition);
}

void remove_partition(ConsumerAssignment& assignment, const TopicId& topic_id,
                      std::int32_t partition) {
  auto topic = assignment.find(topic_id);
  if (topic == assignment.end()) return;
  topic->second.erase(partition);
  if (topic->second.empty()) assignment.erase(topic);
}

}  // namespace kgroups::broker
