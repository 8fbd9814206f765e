// SPDX-License-Identifier: Apache-2.0
//
// CoordinatorService's deletions: each goes to the coordinator that holds the group (both
// for a deleted topic's offsets); a deletion only frees memory, so no budget is shared first.
#include "broker/groups/coordinator_service.h"

#include <algorithm>
#include <string>
#include <vector>

namespace kgroups::broker {

GroupError CoordinatorService::delete_group(std::string_view group_id) {
  if (share_.has_group(group_id)) {
    const GroupError error = share_.delete_group(group_id);
    finish_call();
    return error;
  }
  // The offsets' tombstones go before the group's (as Kafka writes them); taken back if the
  // group is not deleted.
  const std::size_t notes_before = records_.pending();
  records_.note_offsets_deleted(group_id, committed_partitions(group_id));
  const std::size_t noted = records_.pending() - notes_before;
  const GroupError error = consumer_.has_group(group_id) ? consumer_.delete_group(group_id)
                                                         : classic_.delete_group(group_id);
  if (error != GroupError::kNone) records_.discard(notes_before, noted);
  finish_call();
  return error;
}

OffsetDeleteResult CoordinatorService::delete_offsets(
    std::string_view group_id, const std::vector<TopicPartition>& partitions) {
  const std::vector<TopicPartition> committed = committed_partitions(group_id);
  OffsetDeleteResult result = consumer_.has_group(group_id)
                                  ? consumer_.delete_offsets(group_id, partitions)
                                  : classic_.delete_offsets(group_id, partitions);
  if (result.error == GroupError::kNone) {
    std::vector<TopicPartition> deleted;
    for (std::size_t i = 0; i < partitions.size() && i < result.partition_errors.size(); ++i) {
      if (result.partition_errors[i] == GroupError::kNone &&
          std::find(committed.begin(), committed.end(), partitions[i]) != committed.end() &&
          std::find(deleted.begin(), deleted.end(), partitions[i]) == deleted.end()) {
        deleted.push_back(partitions[i]);
      }
    }
    records_.note_offsets_deleted(group_id, deleted);
  }
  finish_call();
  return result;
}

void CoordinatorService::delete_topic_offsets(std::string_view topic) {
  if (records_.topic() != nullptr) {
    // Every group's committed partitions of the topic, before they go: their tombstones.
    std::vector<std::string> groups;
    for (const GroupListing& group : classic_.list_groups()) groups.push_back(group.group_id);
    for (const GroupListing& group : consumer_.list_groups()) groups.push_back(group.group_id);
    for (const std::string& group_id : groups) {
      std::vector<TopicPartition> of_topic;
      for (TopicPartition& partition : committed_partitions(group_id)) {
        if (partition.topic == topic) of_topic.push_back(std::move(partition));
      }
      records_.note_offsets_deleted(group_id, of_topic);
    }
  }
  classic_.delete_topic_offsets(topic);
  consumer_.delete_topic_offsets(topic);
  finish_call();
}

}  // namespace kgroups::broker
