// SPDX-License-Identifier: Apache-2.0
#include "broker/coordinator/range_server_assignor.h"

#include <algorithm>
#include <cstddef>

#include "group/range_assignor.h"

namespace kgroups::broker {

std::vector<ConsumerAssignment> RangeServerAssignor::assign(const AssignmentSpec& spec) const {
  const kgroups::RangeAssignor range;
  std::vector<ConsumerAssignment> result(spec.members.size());
  std::vector<std::string_view> subscriber_ids;
  std::vector<std::size_t> subscribers;  // indexes into spec.members, in member id order
  std::vector<std::vector<int>> ranges;
  for (const auto& [topic_id, partition_count] : spec.partition_counts) {
    subscriber_ids.clear();
    subscribers.clear();
    for (std::size_t i = 0; i < spec.members.size(); ++i) {
      const std::vector<TopicId>& topics = spec.members[i].subscribed_topic_ids;
      if (std::binary_search(topics.begin(), topics.end(), topic_id)) {
        subscriber_ids.push_back(spec.members[i].member_id);
        subscribers.push_back(i);
      }
    }
    if (subscribers.empty() || partition_count < 1) continue;
    ranges.assign(subscribers.size(), {});
    range.assign(partition_count, subscriber_ids, ranges);
    for (std::size_t j = 0; j < subscribers.size(); ++j) {
      for (int partition : ranges[j]) add_partition(result[subscribers[j]], topic_id, partition);
    }
  }
  return result;
}

}  // namespace kgroups::broker
