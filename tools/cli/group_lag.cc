// SPDX-License-Identifier: Apache-2.0
#include "group_lag.h"

#include <algorithm>
#include <set>

namespace kgroups::cli {

std::vector<TopicPartitionId> group_partitions(const GroupDescription& group,
                                               const PartitionOffsets& committed) {
  std::set<TopicPartitionId> partitions;
  for (const auto& [partition, offset] : committed) partitions.insert(partition);
  for (const GroupMemberDescription& member : group.members) {
    if (!member.assignment) continue;
    for (const AssignedTopic& topic : *member.assignment) {
      for (std::int32_t partition : topic.partitions) {
        partitions.insert(TopicPartitionId{topic.topic, partition});
      }
    }
  }
  return {partitions.begin(), partitions.end()};
}

std::vector<GroupLagRow> group_lag_rows(const GroupDescription& group,
                                        const PartitionOffsets& committed,
                                        const PartitionOffsets& end_offsets) {
  std::vector<GroupLagRow> rows;
  for (const TopicPartitionId& partition : group_partitions(group, committed)) {
    GroupLagRow row;
    row.partition = partition;
    if (const auto found = committed.find(partition); found != committed.end()) {
      row.committed_offset = found->second;
    }
    if (const auto found = end_offsets.find(partition); found != end_offsets.end()) {
      row.end_offset = found->second;
    }
    if (row.committed_offset && row.end_offset) {
      row.lag = std::max<std::int64_t>(0, *row.end_offset - *row.committed_offset);
    }
    for (const GroupMemberDescription& member : group.members) {
      if (!member.assignment) continue;
      const bool owns = std::any_of(
          member.assignment->begin(), member.assignment->end(), [&](const AssignedTopic& topic) {
            return topic.topic == partition.topic &&
                   std::find(topic.partitions.begin(), topic.partitions.end(),
                             partition.partition) != topic.partitions.end();
          });
      if (owns) {
        row.member_id = member.member_id;
        row.client_id = member.client_id;
        row.host = member.host;
        break;
      }
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace kgroups::cli
