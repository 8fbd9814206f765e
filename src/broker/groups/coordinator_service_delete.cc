// SPDX-License-Identifier: Apache-2.0
//
// CoordinatorService's deletions: each goes to the coordinator that holds the group (both
// for a deleted topic's offsets); a deletion only frees memory, so no budget is shared first.
#include "broker/groups/coordinator_service.h"

namespace kgroups::broker {

GroupError CoordinatorService::delete_group(std::string_view group_id) {
  const GroupError error = consumer_.has_group(group_id) ? consumer_.delete_group(group_id)
                                                         : classic_.delete_group(group_id);
  rearm();
  return error;
}

OffsetDeleteResult CoordinatorService::delete_offsets(
    std::string_view group_id, const std::vector<TopicPartition>& partitions) {
  OffsetDeleteResult result = consumer_.has_group(group_id)
                                  ? consumer_.delete_offsets(group_id, partitions)
                                  : classic_.delete_offsets(group_id, partitions);
  rearm();
  return result;
}

void CoordinatorService::delete_topic_offsets(std::string_view topic) {
  classic_.delete_topic_offsets(topic);
  consumer_.delete_topic_offsets(topic);
  rearm();
}

}  // namespace kgroups::broker
