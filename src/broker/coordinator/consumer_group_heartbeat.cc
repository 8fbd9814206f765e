// SPDX-License-Identifier: Apache-2.0
//
// ConsumerGroupCoordinator::heartbeat (Kafka's GroupMetadataManager
// consumerGroupHeartbeat and consumerGroupLeave): validate the request, find or
// create the member, fence stale epochs, update the member, then let
// consumer_group_membership.cc bump epochs, recompute the target and reconcile.
#include <algorithm>
#include <utility>

#include "broker/coordinator/consumer_group_coordinator.h"
#include "broker/coordinator/server_assignor.h"

namespace kgroups::broker {
namespace {

ConsumerGroupHeartbeatResult error_result(GroupError error, std::string message) {
  ConsumerGroupHeartbeatResult result;
  result.error = error;
  result.error_message = std::move(message);
  return result;
}

// Returns the fencing error of a heartbeat at `epoch` by `member`, or nullopt. The
// previous epoch is accepted with owned partitions that are a subset of the assigned
// ones: the response that moved the member on may have been lost.
std::optional<ConsumerGroupHeartbeatResult> fence_epoch(
    const ConsumerGroupMember& member, std::int32_t epoch,
    const std::optional<std::vector<TopicPartitions>>& owned) {
  const bool previous_allowed = epoch == member.previous_member_epoch && owned &&
                                is_subset(*owned, member.assigned_partitions);
  if (epoch > member.member_epoch || (epoch < member.member_epoch && !previous_allowed)) {
    return error_result(GroupError::kFencedMemberEpoch,
                        "member epoch " + std::to_string(epoch) + " is not the member's epoch " +
                            std::to_string(member.member_epoch) +
                            "; give up every partition and rejoin with epoch 0");
  }
  return std::nullopt;
}

std::vector<std::string> sorted_unique(std::vector<std::string> names) {
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

// Whether the member says the same of itself in both (what its metadata record holds).
bool same_details(const ConsumerGroupMemberDetails& before,
                  const ConsumerGroupMemberDetails& after) {
  return before.instance_id == after.instance_id && before.rack_id == after.rack_id &&
         before.client_id == after.client_id && before.client_host == after.client_host &&
         before.rebalance_timeout_ms == after.rebalance_timeout_ms &&
         before.server_assignor == after.server_assignor &&
         before.subscribed_topic_names == after.subscribed_topic_names;
}

}  // namespace

ConsumerGroupHeartbeatResult ConsumerGroupCoordinator::heartbeat(
    const ConsumerGroupHeartbeatParams& params) {
  CallScope scope(*this);
  if (std::optional<ConsumerGroupHeartbeatResult> refusal = refuse(params)) return *refusal;
  if (params.member_epoch == kLeaveMemberEpoch || params.member_epoch == kStaticLeaveMemberEpoch) {
    return leave(params);
  }
  return join_or_heartbeat(params);
}

// Kafka's throwIfConsumerGroupHeartbeatRequestIsInvalid, plus our length limits.
std::optional<ConsumerGroupHeartbeatResult> ConsumerGroupCoordinator::refuse(
    const ConsumerGroupHeartbeatParams& params) const {
  auto invalid = [](std::string message) {
    return error_result(GroupError::kInvalidRequest, std::move(message));
  };
  const std::size_t max = config_.max_id_length;
  if (params.group_id.empty()) return invalid("the group id is empty");
  if (params.group_id.size() > max) {
    return error_result(GroupError::kInvalidGroupId,
                        "the group id is longer than " + std::to_string(max) + " bytes");
  }
  if (params.instance_id && params.instance_id->empty()) return invalid("the instance id is empty");
  if (params.rack_id && params.rack_id->empty()) return invalid("the rack id is empty");
  // An empty regex is no regex (Kafka: "" clears it); librdkafka 2.12 sends "" with every
  // subscription by topic names.
  if (params.subscribed_topic_regex && !params.subscribed_topic_regex->empty()) {
    return invalid("regex subscriptions are not supported");
  }
  const std::int32_t epoch = params.member_epoch;
  if (epoch > 0 || epoch == kLeaveMemberEpoch) {
    if (params.member_id.empty()) return invalid("the member id is empty");
  } else if (epoch == kJoinMemberEpoch) {
    if (params.rebalance_timeout_ms == -1) return invalid("a join must give a rebalance timeout");
    if (!params.owned_topic_partitions || !params.owned_topic_partitions->empty()) {
      return invalid("a join must report an empty list of owned partitions");
    }
    if (!params.subscribed_topic_names || params.subscribed_topic_names->empty()) {
      return invalid("a join must subscribe to at least one topic");
    }
  } else if (epoch == kStaticLeaveMemberEpoch) {
    if (params.member_id.empty()) return invalid("the member id is empty");
    if (!params.instance_id) return invalid("epoch -2 is for static members, with an instance id");
  } else {
    return invalid("member epoch " + std::to_string(epoch) + " is invalid");
  }
  if (params.rebalance_timeout_ms < -1) return invalid("the rebalance timeout is negative");
  if (params.server_assignor && find_server_assignor(*params.server_assignor) == nullptr) {
    std::string names;
    for (std::string_view name : server_assignor_names()) {
      names += (names.empty() ? "" : ", ") + std::string(name);
    }
    return error_result(
        GroupError::kUnsupportedAssignor,
        "server assignor " + *params.server_assignor + " is not supported; use one of " + names);
  }
  if (params.member_id.size() > max) {
    return error_result(GroupError::kUnknownMemberId,
                        "the member id is longer than " + std::to_string(max) + " bytes");
  }
  auto too_long = [max](const std::optional<std::string>& text) {
    return text && text->size() > max;
  };
  if (too_long(params.instance_id) || too_long(params.rack_id) || params.client_id.size() > max ||
      params.client_host.size() > max) {
    return invalid("an id is longer than " + std::to_string(max) + " bytes");
  }
  if (params.subscribed_topic_names) {
    if (params.subscribed_topic_names->size() > config_.max_subscribed_topics) {
      return invalid("more than " + std::to_string(config_.max_subscribed_topics) +
                     " subscribed topics");
    }
    for (const std::string& name : *params.subscribed_topic_names) {
      if (name.empty() || name.size() > max) return invalid("a subscribed topic name is invalid");
    }
  }
  return std::nullopt;
}

bool ConsumerGroupCoordinator::exceeds_stored_bytes(const ConsumerGroup* group,
                                                    std::optional<std::string> replaced_id,
                                                    const ConsumerGroupMember& member) const {
  if (config_.max_stored_bytes == 0) return false;
  std::size_t released = 0;
  if (group != nullptr && replaced_id) {
    if (const ConsumerGroupMember* current = group->find_member(*replaced_id)) {
      released = consumer_member_bytes(*current);
    }
  }
  const std::size_t needed = consumer_member_bytes(member);
  return needed > released && stored_bytes() + (needed - released) > config_.max_stored_bytes;
}

ConsumerGroupHeartbeatResult ConsumerGroupCoordinator::join_or_heartbeat(
    const ConsumerGroupHeartbeatParams& params) {
  const bool joining = params.member_epoch == kJoinMemberEpoch;
  ConsumerGroup* group = groups_.find_to_change(params.group_id);
  const std::string member_id = params.member_id.empty() ? new_member_id() : params.member_id;
  auto unknown = [&member_id, &params]() {
    return error_result(GroupError::kUnknownMemberId,
                        "member " + member_id + " is not in group " + params.group_id);
  };
  if (group == nullptr && !joining) return unknown();
  if (group == nullptr && groups_.size() >= config_.max_groups) {
    return error_result(
        GroupError::kPolicyViolation,
        "the coordinator holds " + std::to_string(config_.max_groups) + " groups already");
  }

  // The member as it is before this heartbeat (new: empty), and the id of a static
  // member it replaces.
  ConsumerGroupMember member;
  member.member_id = member_id;
  bool adds_member = false;
  // A heartbeat of a known member changes only what it says of itself before reconciling:
  // `member` is then a copy without partitions, and the group keeps them.
  bool keeps_partitions = false;
  std::optional<std::string> replaced_member_id;
  const ConsumerGroupMember* existing = nullptr;
  if (params.instance_id) {
    existing = group == nullptr ? nullptr : group->static_member(*params.instance_id);
    if (!joining) {
      if (existing == nullptr) return unknown();
      if (existing->member_id != member_id) {
        return error_result(
            GroupError::kFencedInstanceId,
            "instance id " + *params.instance_id + " belongs to member " + existing->member_id);
      }
      if (auto fenced =
              fence_epoch(*existing, params.member_epoch, params.owned_topic_partitions)) {
        return *fenced;
      }
      member = existing->without_partitions();
      keeps_partitions = true;
    } else if (existing != nullptr) {
      if (existing->member_epoch != kStaticLeaveMemberEpoch) {
        return error_result(GroupError::kUnreleasedInstanceId,
                            "instance id " + *params.instance_id + " is still held by member " +
                                existing->member_id);
      }
      // A static member restarts: it takes over the departed one's place and partitions.
      member = *existing;
      member.member_id = member_id;
      member.member_epoch = 0;
      member.previous_member_epoch = 0;
      member.session_deadline.reset();
      member.rebalance_deadline.reset();
      replaced_member_id = existing->member_id;
    } else {
      adds_member = group == nullptr || group->find_member(member_id) == nullptr;
    }
  }
  if (!params.instance_id || (joining && existing == nullptr)) {
    existing = group == nullptr ? nullptr : group->find_member(member_id);
    if (existing == nullptr) {
      if (!joining) return unknown();
      adds_member = true;
    } else if (joining) {
      // A known member rejoins from scratch: it reported owning nothing, so whatever it
      // had is released.
      member = existing->without_partitions();
      member.member_epoch = 0;
      member.previous_member_epoch = 0;
      member.state = MemberState::kStable;
      member.rebalance_deadline.reset();
    } else {
      if (auto fenced =
              fence_epoch(*existing, params.member_epoch, params.owned_topic_partitions)) {
        return *fenced;
      }
      member = existing->without_partitions();
      keeps_partitions = true;
    }
  }
  if (adds_member && group != nullptr && group->size() >= config_.max_group_size) {
    return error_result(GroupError::kGroupMaxSizeReached,
                        "group " + params.group_id + " has " +
                            std::to_string(config_.max_group_size) + " members already");
  }

  // The member as this heartbeat leaves it (a copy: nothing has changed yet).
  if (params.instance_id) member.instance_id = params.instance_id;
  if (params.rack_id) member.rack_id = params.rack_id;
  if (params.rebalance_timeout_ms != -1) member.rebalance_timeout_ms = params.rebalance_timeout_ms;
  if (params.server_assignor) member.server_assignor = params.server_assignor;
  bool subscription_changed = false;
  if (params.subscribed_topic_names) {
    std::vector<std::string> names = sorted_unique(*params.subscribed_topic_names);
    subscription_changed = names != member.subscribed_topic_names;
    member.subscribed_topic_names = std::move(names);
  }
  member.client_id = params.client_id;
  member.client_host = params.client_host;
  member.session_deadline = now() + std::chrono::milliseconds(config_.session_timeout_ms);
  if (exceeds_stored_bytes(
          group, adds_member ? std::nullopt : std::optional(replaced_member_id.value_or(member_id)),
          member)) {
    return error_result(GroupError::kCoordinatorLoadInProgress,
                        "the consumer groups' share of memory is full (--max-memory); retry "
                        "later or give the broker more memory");
  }

  // Every check passed: change the group.
  bool details_changed = false;
  if (group == nullptr) group = &create_group(params.group_id);
  if (adds_member) log("group \"" + group->group_id() + "\": member " + member_id + " joined");
  if (replaced_member_id) {
    log("group \"" + group->group_id() + "\": static member " + member_id + " (instance " +
        *params.instance_id + ") replaced member " + *replaced_member_id);
    if (observer_ != nullptr) {
      const ConsumerGroupMember& old_member = *group->find_member(*replaced_member_id);
      observer_->on_member_left(
          GroupType::kConsumer, group->group_id(), observed(old_member),
          "static member " + *params.instance_id + " rejoined as " + member_id);
    }
    group->replace_member(*replaced_member_id, std::move(member));
  } else if (keeps_partitions) {
    details_changed = !same_details(*existing, member);
    group->update_member_details(std::move(member));
  } else {
    group->put_member(std::move(member));
  }
  if (observer_ != nullptr) {
    if (adds_member || replaced_member_id) {
      observer_->on_member_joined(GroupType::kConsumer, group->group_id(),
                                  observed(*group->find_member(member_id)));
    } else if (!keeps_partitions) {  // a known member rejoined from scratch: epoch 0, nothing
      observer_->on_member_updated(GroupType::kConsumer, group->group_id(), member_id,
                                   MemberUpdate::kDetails);
      observer_->on_member_updated(GroupType::kConsumer, group->group_id(), member_id,
                                   MemberUpdate::kAssignment);
    } else if (details_changed) {
      observer_->on_member_updated(GroupType::kConsumer, group->group_id(), member_id,
                                   MemberUpdate::kDetails);
    }
  }
  update_group_epoch_and_target(*group, subscription_changed, member_id, adds_member);
  // The member's partitions as stored above are those it had before this heartbeat (none
  // for a new member or one rejoining from scratch), so only reconciling can change them.
  const bool assignment_changed = reconcile(*group, member_id, params.owned_topic_partitions);

  const ConsumerGroupMember& updated = *group->find_member(member_id);
  ConsumerGroupHeartbeatResult result;
  result.member_id = member_id;
  result.member_epoch = updated.member_epoch;
  result.heartbeat_interval_ms = config_.heartbeat_interval_ms;
  const bool full_request =
      joining || (params.rebalance_timeout_ms != -1 && params.subscribed_topic_names &&
                  params.owned_topic_partitions);
  if (full_request || assignment_changed) {
    result.assignment = to_topic_partitions(updated.assigned_partitions);
  }
  return result;
}

ConsumerGroupHeartbeatResult ConsumerGroupCoordinator::leave(
    const ConsumerGroupHeartbeatParams& params) {
  ConsumerGroup* group = groups_.find_to_change(params.group_id);
  const ConsumerGroupMember* member = nullptr;
  if (params.instance_id) {
    member = group == nullptr ? nullptr : group->static_member(*params.instance_id);
    if (member == nullptr) {
      return error_result(GroupError::kUnknownMemberId,
                          "instance id " + *params.instance_id + " is unknown");
    }
    if (member->member_id != params.member_id) {
      return error_result(
          GroupError::kFencedInstanceId,
          "instance id " + *params.instance_id + " belongs to member " + member->member_id);
    }
  } else {
    member = group == nullptr ? nullptr : group->find_member(params.member_id);
    if (member == nullptr) {
      return error_result(GroupError::kUnknownMemberId,
                          "member " + params.member_id + " is not in group " + params.group_id);
    }
  }
  ConsumerGroupHeartbeatResult result;
  result.member_id = params.member_id;
  result.member_epoch = params.member_epoch;
  if (params.member_epoch == kStaticLeaveMemberEpoch) {
    // The static member's place and partitions wait for it until its session ends.
    ConsumerGroupMember away = *member;
    away.member_epoch = kStaticLeaveMemberEpoch;
    away.partitions_pending_revocation.clear();
    away.rebalance_deadline.reset();
    log("group \"" + group->group_id() + "\": static member " + params.member_id +
        " left for now, its assignment held for its session");
    group->put_member(std::move(away));
    if (observer_ != nullptr) {
      observer_->on_member_updated(GroupType::kConsumer, group->group_id(), params.member_id,
                                   MemberUpdate::kAssignment);
    }
    return result;
  }
  fence_member(*group, params.member_id, Removal::kLeft, "it left the group");
  return result;
}

}  // namespace kgroups::broker
