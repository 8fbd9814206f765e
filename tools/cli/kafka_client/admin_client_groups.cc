// SPDX-License-Identifier: Apache-2.0
//
// AdminClient's group calls: ListGroups, DescribeGroups, OffsetFetch and OffsetCommit.
#include <algorithm>

#include "kafka_client/admin_client.h"
#include "protocol/messages/describe_groups.h"
#include "protocol/messages/list_groups.h"
#include "protocol/messages/offset_commit.h"
#include "protocol/messages/offset_fetch.h"

namespace kgroups::cli {

std::vector<ListedGroup> AdminClient::list_groups() {
  const ClusterMetadata cluster = metadata(std::vector<std::string>{});
  std::vector<ListedGroup> groups;
  for (const auto& [node_id, address] : cluster.brokers) {
    const auto response =
        connection_to(address).call<protocol::ListGroupsResponse>(protocol::ListGroupsRequest{});
    if (response.error_code != protocol::ErrorCode::kNone) {
      throw KafkaClientError("broker " + address.to_string() +
                             " refused ListGroups: " + describe_error(response.error_code));
    }
    for (const auto& group : response.groups) {
      groups.push_back(
          ListedGroup{group.group_id, group.protocol_type, group.group_state, group.group_type});
    }
  }
  std::sort(groups.begin(), groups.end(),
            [](const auto& a, const auto& b) { return a.group_id < b.group_id; });
  return groups;
}

GroupDescription AdminClient::describe_group(const std::string& group_id) {
  for (;;) {
    protocol::DescribeGroupsRequest request;
    request.groups = {group_id};
    const auto response = coordinator_for(group_id).call<protocol::DescribeGroupsResponse>(request);
    if (response.groups.size() != 1) {
      throw KafkaClientError("the coordinator of group '" + group_id + "' described " +
                             std::to_string(response.groups.size()) + " groups, not 1");
    }
    const auto& group = response.groups.front();
    if (is_retriable_coordinator_error(group.error_code)) {
      retry_coordinator(group_id, group.error_code);
      continue;
    }
    GroupDescription described;
    described.group_id = group.group_id;
    if (group.error_code == protocol::ErrorCode::kGroupIdNotFound) {
      described.state = "Dead";
      return described;
    }
    if (group.error_code != protocol::ErrorCode::kNone) {
      throw KafkaClientError("cannot describe group '" + group_id +
                             "': " + describe_error(group.error_code));
    }
    described.state = group.group_state;
    described.protocol_type = group.protocol_type;
    described.protocol = group.protocol_data;
    for (const auto& member : group.members) {
      GroupMemberDescription out{member.member_id, member.group_instance_id, member.client_id,
                                 member.client_host, std::nullopt};
      if (group.protocol_type == "consumer") {
        out.assignment = broker::consumer_assignment_partitions(member.member_assignment);
      }
      described.members.push_back(std::move(out));
    }
    return described;
  }
}

PartitionOffsets AdminClient::committed_offsets(const std::string& group_id) {
  for (;;) {
    BrokerConnection& coordinator = coordinator_for(group_id);
    const std::int16_t version = coordinator.version_for<protocol::OffsetFetchRequest>();
    if (version < 2) {
      throw KafkaClientError("broker " + coordinator.address().to_string() +
                             " serves OffsetFetch only below v2, which cannot list every "
                             "committed partition");
    }
    protocol::OffsetFetchRequest request;
    request.group_id = group_id;
    request.topics = std::nullopt;  // every committed partition
    protocol::OffsetFetchRequest::Group group;
    group.group_id = group_id;
    group.topics = std::nullopt;
    request.groups = {group};
    const auto response = coordinator.call<protocol::OffsetFetchResponse>(request);

    protocol::ErrorCode error = response.error_code;
    PartitionOffsets offsets;
    const auto add = [&](const std::string& topic, const auto& partition) {
      if (partition.error_code != protocol::ErrorCode::kNone) {
        std::string message = "cannot read the committed offset of " + topic + "-";
        message += std::to_string(partition.partition_index);
        message += " in group '" + group_id + "': ";
        message += describe_error(partition.error_code);
        throw KafkaClientError(message);
      }
      if (partition.committed_offset >= 0) {
        offsets[TopicPartitionId{topic, partition.partition_index}] = partition.committed_offset;
      }
    };
    if (version >= 8) {
      if (response.groups.size() != 1) {
        throw KafkaClientError("the coordinator of group '" + group_id + "' answered for " +
                               std::to_string(response.groups.size()) + " groups, not 1");
      }
      error = response.groups.front().error_code;
      if (error == protocol::ErrorCode::kNone) {
        for (const auto& topic : response.groups.front().topics) {
          for (const auto& partition : topic.partitions) add(topic.name, partition);
        }
      }
    } else if (error == protocol::ErrorCode::kNone) {
      for (const auto& topic : response.topics) {
        for (const auto& partition : topic.partitions) add(topic.name, partition);
      }
    }
    if (is_retriable_coordinator_error(error)) {
      retry_coordinator(group_id, error);
      continue;
    }
    if (error == protocol::ErrorCode::kGroupIdNotFound) return {};
    if (error != protocol::ErrorCode::kNone) {
      throw KafkaClientError("cannot read the committed offsets of group '" + group_id +
                             "': " + describe_error(error));
    }
    return offsets;
  }
}

void AdminClient::commit_offsets(const std::string& group_id, const PartitionOffsets& offsets) {
  protocol::OffsetCommitRequest request;
  request.group_id = group_id;
  request.generation_id = -1;
  request.member_id = "";
  for (const auto& [partition, offset] : offsets) {
    if (request.topics.empty() || request.topics.back().name != partition.topic) {
      request.topics.push_back(protocol::OffsetCommitRequest::Topic{partition.topic, {}});
    }
    protocol::OffsetCommitRequest::Partition committed;
    committed.partition_index = partition.partition;
    committed.committed_offset = offset;
    request.topics.back().partitions.push_back(committed);
  }
  for (;;) {
    const auto response = coordinator_for(group_id).call<protocol::OffsetCommitResponse>(request);
    std::string refused;
    protocol::ErrorCode retriable = protocol::ErrorCode::kNone;
    for (const auto& topic : response.topics) {
      for (const auto& partition : topic.partitions) {
        if (partition.error_code == protocol::ErrorCode::kNone) continue;
        if (is_retriable_coordinator_error(partition.error_code)) {
          retriable = partition.error_code;
          continue;
        }
        refused += "\n  " + topic.name + "-" + std::to_string(partition.partition_index) + ": " +
                   describe_error(partition.error_code);
      }
    }
    if (!refused.empty()) {
      std::string message = "the coordinator of group '" + group_id + "' refused the commit:";
      message += refused;
      throw KafkaClientError(message);
    }
    if (retriable == protocol::ErrorCode::kNone) return;
    retry_coordinator(group_id, retriable);
  }
}

}  // namespace kgroups::cli
