// SPDX-License-Identifier: Apache-2.0
//
// AdminClient::fetch: one Fetch of one partition at its leader, without a fetch session.
#include "kafka_client/admin_client.h"
#include "protocol/messages/fetch.h"

namespace kgroups::cli {

FetchedPartition AdminClient::fetch(const TopicPartitionId& partition, std::int64_t offset,
                                    std::int32_t max_bytes) {
  const ClusterMetadata cluster = metadata(std::vector<std::string>{partition.topic});
  std::int32_t leader = -1;
  for (const TopicMetadata& topic : cluster.topics) {
    for (const PartitionMetadata& described : topic.partitions) {
      if (topic.name == partition.topic && described.partition == partition.partition) {
        leader = described.leader;
      }
    }
  }
  const auto address = cluster.brokers.find(leader);
  if (address == cluster.brokers.end()) {
    throw KafkaClientError("partition " + partition.topic + "-" +
                           std::to_string(partition.partition) +
                           " has no leader the cluster knows");
  }
  BrokerConnection& connection = connection_to(address->second);
  // v4-12 name topics (v13 on names them by id) and carry magic-2 batches.
  constexpr std::int16_t kNewestByName = 12;
  const std::int16_t version = connection.version_for(protocol::ApiKey::kFetch, 4, kNewestByName);
  protocol::FetchRequest request;
  request.max_wait_ms = 0;
  request.min_bytes = 0;
  request.max_bytes = max_bytes;
  request.session_epoch = -1;  // no fetch session
  auto& topic = request.topics.emplace_back();
  topic.topic = partition.topic;
  auto& asked = topic.partitions.emplace_back();
  asked.partition = partition.partition;
  asked.fetch_offset = offset;
  asked.partition_max_bytes = max_bytes;
  std::vector<std::uint8_t> body;
  const auto response =
      connection.call_keeping_body<protocol::FetchResponse>(request, version, body);
  FetchedPartition fetched;
  fetched.error = response.error_code;
  for (const auto& answered_topic : response.responses) {
    for (const auto& answered : answered_topic.partitions) {
      if (answered_topic.topic != partition.topic ||
          answered.partition_index != partition.partition) {
        continue;
      }
      if (fetched.error == protocol::ErrorCode::kNone) fetched.error = answered.error_code;
      fetched.high_watermark = answered.high_watermark;
      for (const protocol::ByteView& bytes : answered.records) {
        fetched.records.insert(fetched.records.end(), bytes.begin(), bytes.end());
      }
    }
  }
  return fetched;
}

}  // namespace kgroups::cli
