// SPDX-License-Identifier: Apache-2.0
//
// AdminClient's ListOffsets: each partition's earliest or latest offset, from its leader.
#include "kafka_client/admin_client.h"
#include "protocol/messages/list_offsets.h"

namespace kgroups::cli {

PartitionOffsets AdminClient::list_offsets(const std::vector<TopicPartitionId>& partitions,
                                           OffsetSpec spec) {
  if (partitions.empty()) return {};
  std::vector<std::string> topics;
  for (const TopicPartitionId& partition : partitions) {
    if (topics.empty() || topics.back() != partition.topic) topics.push_back(partition.topic);
  }
  const ClusterMetadata cluster = metadata(topics);
  std::map<std::pair<std::string, std::int32_t>, std::int32_t> leaders;
  for (const TopicMetadata& topic : cluster.topics) {
    for (const PartitionMetadata& partition : topic.partitions) {
      leaders[{topic.name, partition.partition}] = partition.leader;
    }
  }
  std::map<std::int32_t, std::vector<TopicPartitionId>> by_leader;
  for (const TopicPartitionId& partition : partitions) {
    const auto leader = leaders.find({partition.topic, partition.partition});
    if (leader == leaders.end()) continue;  // a partition (or topic) that no longer exists
    if (!cluster.brokers.contains(leader->second)) {
      throw KafkaClientError("partition " + partition.topic + "-" +
                             std::to_string(partition.partition) +
                             " has no leader the cluster knows");
    }
    by_leader[leader->second].push_back(partition);
  }

  const std::int64_t timestamp = spec == OffsetSpec::kEarliest
                                     ? protocol::kListOffsetsEarliestTimestamp
                                     : protocol::kListOffsetsLatestTimestamp;
  PartitionOffsets offsets;
  for (const auto& [leader, led] : by_leader) {
    protocol::ListOffsetsRequest request;
    for (const TopicPartitionId& partition : led) {
      if (request.topics.empty() || request.topics.back().name != partition.topic) {
        request.topics.push_back(protocol::ListOffsetsRequest::Topic{partition.topic, {}});
      }
      protocol::ListOffsetsRequest::Partition asked;
      asked.partition_index = partition.partition;
      asked.timestamp = timestamp;
      request.topics.back().partitions.push_back(asked);
    }
    BrokerConnection& connection = connection_to(cluster.brokers.at(leader));
    const bool old_style = connection.version_for<protocol::ListOffsetsRequest>() == 0;
    const auto response = connection.call<protocol::ListOffsetsResponse>(request);
    for (const auto& topic : response.topics) {
      for (const auto& partition : topic.partitions) {
        const std::string name = topic.name + "-" + std::to_string(partition.partition_index);
        if (partition.error_code != protocol::ErrorCode::kNone) {
          throw KafkaClientError("cannot list the offsets of " + name + ": " +
                                 describe_error(partition.error_code));
        }
        std::int64_t offset = partition.offset;
        if (old_style) {
          offset = partition.old_style_offsets.empty() ? -1 : partition.old_style_offsets[0];
        }
        offsets[TopicPartitionId{topic.name, partition.partition_index}] = offset;
      }
    }
  }
  return offsets;
}

}  // namespace kgroups::cli
