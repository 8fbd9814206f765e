// SPDX-License-Identifier: Apache-2.0
//
// ConsumerGroupCoordinator's observations: member identities, and a new target assignment
// as a completed rebalance whose generation is the group epoch.
#include "broker/coordinator/consumer_group_coordinator.h"

namespace kgroups::broker {

ObservedMember ConsumerGroupCoordinator::observed(const ConsumerGroupMember& member) {
  ObservedMember identity;
  identity.member_id = member.member_id;
  identity.client_id = member.client_id;
  identity.client_host = member.client_host;
  if (member.instance_id) identity.instance_id = *member.instance_id;
  return identity;
}

void ConsumerGroupCoordinator::observe_target_assignment(const ConsumerGroup& group,
                                                         std::string_view assignor) const {
  ObservedRebalance rebalance;
  rebalance.type = GroupType::kConsumer;
  rebalance.group_id = group.group_id();
  rebalance.generation = group.assignment_epoch();
  rebalance.protocol = assignor;
  rebalance.assignment.reserve(group.size());
  for (const auto& [member_id, member] : group.members()) {
    ObservedAssignment& entry = rebalance.assignment.emplace_back();
    entry.member_id = member_id;
    std::vector<AssignedTopicPartitions>& partitions = entry.partitions.emplace();
    for (NamedTopicPartitions& topic : named(group.target_of(member_id))) {
      partitions.push_back({std::move(topic.topic_name), std::move(topic.partitions)});
    }
  }
  observer_->on_rebalance_completed(rebalance);
}

}  // namespace kgroups::broker
