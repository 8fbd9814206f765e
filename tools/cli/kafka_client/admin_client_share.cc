// SPDX-License-Identifier: Apache-2.0
//
// AdminClient's share-group calls (KIP-932): ShareGroupDescribe and DescribeShareGroupOffsets.
#include "kafka_client/admin_client.h"
#include "protocol/messages/describe_share_group_offsets.h"
#include "protocol/messages/share_group_describe.h"

namespace kgroups::cli {

DescribedShareGroup AdminClient::describe_share_group(const std::string& group_id) {
  for (;;) {
    protocol::ShareGroupDescribeRequest request;
    request.group_ids = {group_id};
    const auto response =
        coordinator_for(group_id).call<protocol::ShareGroupDescribeResponse>(request);
    if (response.groups.size() != 1) {
      throw KafkaClientError("the coordinator of group '" + group_id + "' described " +
                             std::to_string(response.groups.size()) + " share groups, not 1");
    }
    const auto& group = response.groups.front();
    if (is_retriable_coordinator_error(group.error_code)) {
      retry_coordinator(group_id, group.error_code);
      continue;
    }
    DescribedShareGroup described;
    described.group_id = group.group_id;
    if (group.error_code == protocol::ErrorCode::kGroupIdNotFound) {
      described.state = "Dead";
      return described;
    }
    if (group.error_code != protocol::ErrorCode::kNone) {
      throw KafkaClientError("cannot describe share group '" + group_id +
                             "': " + describe_error(group.error_code));
    }
    described.state = group.group_state;
    described.group_epoch = group.group_epoch;
    described.assignor = group.assignor_name;
    for (const auto& member : group.members) {
      DescribedShareMember& out = described.members.emplace_back();
      out.member_id = member.member_id;
      out.member_epoch = member.member_epoch;
      out.client_id = member.client_id;
      out.host = member.client_host;
      for (const auto& topic : member.assignment.topic_partitions) {
        out.assignment.push_back({topic.topic_name, topic.partitions});
      }
    }
    return described;
  }
}

std::map<TopicPartitionId, ShareStartOffset> AdminClient::share_start_offsets(
    const std::string& group_id) {
  for (;;) {
    protocol::DescribeShareGroupOffsetsRequest request;
    protocol::DescribeShareGroupOffsetsRequest::Group group;
    group.group_id = group_id;
    group.topics = std::nullopt;  // every share-partition
    request.groups = {group};
    const auto response =
        coordinator_for(group_id).call<protocol::DescribeShareGroupOffsetsResponse>(request);
    if (response.groups.size() != 1) {
      throw KafkaClientError("the coordinator of group '" + group_id + "' answered for " +
                             std::to_string(response.groups.size()) + " groups, not 1");
    }
    const auto& answered = response.groups.front();
    if (is_retriable_coordinator_error(answered.error_code)) {
      retry_coordinator(group_id, answered.error_code);
      continue;
    }
    if (answered.error_code == protocol::ErrorCode::kGroupIdNotFound) return {};
    if (answered.error_code != protocol::ErrorCode::kNone) {
      throw KafkaClientError("cannot read the start offsets of share group '" + group_id +
                             "': " + describe_error(answered.error_code));
    }
    std::map<TopicPartitionId, ShareStartOffset> offsets;
    for (const auto& topic : answered.topics) {
      for (const auto& partition : topic.partitions) {
        if (partition.error_code != protocol::ErrorCode::kNone) continue;
        offsets[TopicPartitionId{topic.topic_name, partition.partition_index}] =
            ShareStartOffset{partition.start_offset, partition.lag};
      }
    }
    return offsets;
  }
}

}  // namespace kgroups::cli
