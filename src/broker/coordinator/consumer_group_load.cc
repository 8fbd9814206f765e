// SPDX-License-Identifier: Apache-2.0
//
// ConsumerGroupCoordinator's side of a coordinator move (KIP-848): unloading a group when its
// __consumer_offsets partition's leadership goes, and loading one read back from the
// partition's log, as Kafka's GroupMetadataManager replays the consumer-group records and
// then starts every member's session timer afresh (onLoaded).
#include <chrono>
#include <string>
#include <utility>

#include "broker/coordinator/consumer_group_coordinator.h"

namespace kgroups::broker {

bool ConsumerGroupCoordinator::unload_group(std::string_view group_id) {
  CallScope scope(*this);
  if (groups_.find(group_id) == nullptr) return false;
  log("consumer group \"" + std::string(group_id) + "\" unloaded: its coordinator moved");
  groups_.erase(std::string(group_id));  // the view may point into the erased group's id
  return true;
}

GroupError ConsumerGroupCoordinator::load_group(LoadedConsumerGroup loaded) {
  CallScope scope(*this);
  if (loaded.group_id.empty() || loaded.group_id.size() > config_.max_id_length ||
      groups_.find(loaded.group_id) != nullptr) {
    return GroupError::kInvalidGroupId;
  }
  if (groups_.size() >= config_.max_groups) return GroupError::kPolicyViolation;
  if (loaded.members.size() > config_.max_group_size) return GroupError::kGroupMaxSizeReached;
  std::size_t bytes = 0;
  for (const ConsumerGroupMember& member : loaded.members) bytes += consumer_member_bytes(member);
  if (config_.max_stored_bytes > 0 && stored_bytes() + bytes > config_.max_stored_bytes) {
    return GroupError::kCoordinatorLoadInProgress;
  }

  ConsumerGroup& group = groups_.create(loaded.group_id);
  group.set_group_epoch(loaded.group_epoch);
  for (ConsumerGroupMember& member : loaded.members) {
    member.session_deadline = now() + std::chrono::milliseconds(config_.session_timeout_ms);
    member.rebalance_deadline.reset();
    if (member.state == MemberState::kUnrevokedPartitions) {
      member.rebalance_deadline = now() + std::chrono::milliseconds(member.rebalance_timeout_ms);
    }
    group.put_member(std::move(member));
  }
  group.set_target_assignment(std::move(loaded.target), loaded.assignment_epoch);
  (void)group.refresh_subscription_metadata(catalog_);
  log("consumer group \"" + group.group_id() + "\" loaded at epoch " +
      std::to_string(group.group_epoch()) + " with " + std::to_string(group.size()) + " member(s)");
  return GroupError::kNone;
}

}  // namespace kgroups::broker
