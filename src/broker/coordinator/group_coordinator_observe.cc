// SPDX-License-Identifier: Apache-2.0
//
// GroupCoordinator's observations: what it tells its GroupObserver, shaped from a group's
// state (member identities, and each member's assignment decoded from the consumer
// protocol's bytes when the group's protocol type is "consumer").
#include "broker/coordinator/group_coordinator.h"

namespace kgroups::broker {
namespace {

constexpr std::string_view kConsumerProtocolType = "consumer";

ObservedMember observed(const GroupMember& member) {
  ObservedMember identity;
  identity.member_id = member.member_id;
  identity.client_id = member.client_id;
  identity.client_host = member.client_host;
  if (member.group_instance_id) identity.instance_id = *member.group_instance_id;
  return identity;
}

}  // namespace

void GroupCoordinator::observe_member_joined(const ClassicGroup& group,
                                             const GroupMember& member) const {
  if (observer_ != nullptr) {
    observer_->on_member_joined(GroupType::kClassic, group.group_id(), observed(member));
  }
}

void GroupCoordinator::observe_member_left(const ClassicGroup& group, const GroupMember& member,
                                           std::string_view reason) const {
  if (observer_ != nullptr) {
    observer_->on_member_left(GroupType::kClassic, group.group_id(), observed(member), reason);
  }
}

void GroupCoordinator::observe_member_expired(const ClassicGroup& group, const GroupMember& member,
                                              std::string_view reason) const {
  if (observer_ != nullptr) {
    observer_->on_member_expired(GroupType::kClassic, group.group_id(), observed(member), reason);
  }
}

void GroupCoordinator::observe_rebalance_completed(const ClassicGroup& group) const {
  if (observer_ == nullptr) return;
  ObservedRebalance rebalance;
  rebalance.type = GroupType::kClassic;
  rebalance.group_id = group.group_id();
  rebalance.generation = group.generation_id();
  rebalance.protocol = group.protocol_name();
  rebalance.leader_id = group.leader_id();
  const bool readable = group.protocol_type() == kConsumerProtocolType;
  rebalance.assignment.reserve(group.members().size());
  for (const auto& [member_id, member] : group.members()) {
    ObservedAssignment& entry = rebalance.assignment.emplace_back();
    entry.member_id = member_id;
    if (readable) entry.partitions = consumer_assignment_partitions(member.assignment);
  }
  observer_->on_rebalance_completed(rebalance);
}

}  // namespace kgroups::broker
