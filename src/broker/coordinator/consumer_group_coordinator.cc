// SPDX-License-Identifier: Apache-2.0
//
// ConsumerGroupCoordinator: construction, lookup, ConsumerGroupDescribe, ListGroups
// and timers. The heartbeat lives in consumer_group_heartbeat.cc, epochs, target
// assignment and reconciliation in consumer_group_membership.cc, offsets in
// consumer_group_offsets.cc.
#include "broker/coordinator/consumer_group_coordinator.h"

#include <algorithm>
#include <utility>

#include "broker/coordinator/server_assignor.h"

namespace kgroups::broker {

ConsumerGroupCoordinator::ConsumerGroupCoordinator(ConsumerGroupConfig config, const Clock& clock,
                                                   const TopicCatalog& catalog, Logger logger)
    : config_(config),
      clock_(clock),
      catalog_(catalog),
      logger_(std::move(logger)),
      member_id_random_(std::random_device{}()) {}

ConsumerGroupDescription ConsumerGroupCoordinator::describe_group(std::string_view group_id) {
  CallScope scope(*this);
  ConsumerGroupDescription description;
  description.group_id = std::string(group_id);
  if (group_id.size() > config_.max_id_length) {
    description.error = GroupError::kInvalidGroupId;
    description.error_message =
        "the group id is longer than " + std::to_string(config_.max_id_length) + " bytes";
    return description;
  }
  const ConsumerGroup* group = groups_.find(group_id);
  if (group == nullptr) {
    description.error = GroupError::kGroupIdNotFound;
    description.error_message = "group " + std::string(group_id) + " is not a consumer group";
    return description;
  }
  description.group_state = std::string(consumer_group_state_name(group->state()));
  description.group_epoch = group->group_epoch();
  description.assignment_epoch = group->assignment_epoch();
  description.assignor_name = group->preferred_assignor(kDefaultServerAssignor);
  for (const auto& [member_id, member] : group->members()) {
    ConsumerMemberDescription& out = description.members.emplace_back();
    out.member_id = member_id;
    out.instance_id = member.instance_id;
    out.rack_id = member.rack_id;
    out.member_epoch = member.member_epoch;
    out.client_id = member.client_id;
    out.client_host = member.client_host;
    out.subscribed_topic_names = member.subscribed_topic_names;
    out.assignment = named(member.assigned_partitions);
    out.target_assignment = named(group->target_of(member_id));
    out.member_state = std::string(member_state_name(member.state));
    out.pending_revocation = named(member.partitions_pending_revocation);
  }
  return description;
}

std::vector<GroupListing> ConsumerGroupCoordinator::list_groups() {
  CallScope scope(*this);
  std::vector<GroupListing> listings;
  listings.reserve(groups_.size());
  groups_.for_each([&listings](const ConsumerGroup& group) {
    listings.push_back(GroupListing{group.group_id(), "consumer",
                                    std::string(consumer_group_state_name(group.state()))});
  });
  std::sort(listings.begin(), listings.end(),
            [](const GroupListing& a, const GroupListing& b) { return a.group_id < b.group_id; });
  return listings;
}

bool ConsumerGroupCoordinator::has_group(std::string_view group_id) const {
  return groups_.find(group_id) != nullptr;
}

void ConsumerGroupCoordinator::poll_timers() { CallScope scope(*this); }

std::optional<Clock::TimePoint> ConsumerGroupCoordinator::next_deadline() const {
  return groups_.next_deadline();
}

void ConsumerGroupCoordinator::shutdown() { groups_.clear(); }

void ConsumerGroupCoordinator::begin_call() { fire_due_timers(); }

void ConsumerGroupCoordinator::end_call() { settle_touched_groups(); }

// Refiles each touched group under its next deadline, or forgets it when it has neither
// members nor offsets.
void ConsumerGroupCoordinator::settle_touched_groups() {
  groups_.settle([this](const ConsumerGroup& group) {
    if (group.size() != 0 || !group.offsets().empty()) return false;
    log("consumer group \"" + group.group_id() + "\" forgotten: no members, no offsets");
    if (observer_ != nullptr) observer_->on_group_forgotten(GroupType::kConsumer, group.group_id());
    return true;
  });
}

ConsumerGroup& ConsumerGroupCoordinator::create_group(std::string_view group_id) {
  ConsumerGroup& created = groups_.create(group_id);
  log("consumer group \"" + created.group_id() + "\" created");
  return created;
}

void ConsumerGroupCoordinator::fire_due_timers() {
  const Clock::TimePoint at = now();
  for (std::string_view group_id : groups_.due_at(at)) {
    ConsumerGroup* group = groups_.find_to_change(group_id);
    if (group == nullptr) continue;
    for (const auto& [member_id, timer] : group->due_timers(at)) {
      const ConsumerGroupMember* member = group->find_member(member_id);
      if (member == nullptr) continue;
      if (timer == MemberTimer::kSession) {
        fence_member(*group, member_id, Removal::kExpired, "its session expired");
      } else if (member->state == MemberState::kUnrevokedPartitions) {
        fence_member(*group, member_id, Removal::kExpired,
                     "it did not revoke its partitions within its rebalance timeout of " +
                         std::to_string(member->rebalance_timeout_ms) + " ms");
      } else {
        ConsumerGroupMember disarmed = *member;  // revoked in time: nothing to do
        disarmed.rebalance_deadline.reset();
        group->put_member(std::move(disarmed));
      }
    }
  }
  // A due group is refiled (or forgotten) before the call goes on.
  settle_touched_groups();
}

// Kafka's member ids: a random UUID in URL-safe base64 without padding (22 bytes).
std::string ConsumerGroupCoordinator::new_member_id() {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  std::uint64_t high = member_id_random_();
  std::uint64_t low = member_id_random_();
  std::string id;
  id.reserve(22);
  // 128 bits in 6-bit groups: 21 full groups and 2 final bits.
  for (int bit = 0; bit < 128; bit += 6) {
    std::uint32_t group = 0;
    for (int i = 0; i < 6; ++i) {
      const int at = bit + i;
      std::uint32_t value = 0;
      if (at < 64) {
        value = static_cast<std::uint32_t>((high >> (63 - at)) & 1U);
      } else if (at < 128) {
        value = static_cast<std::uint32_t>((low >> (127 - at)) & 1U);
      }
      group = (group << 1) | value;
    }
    id.push_back(kAlphabet[group]);
  }
  return id;
}

void ConsumerGroupCoordinator::log(const std::string& line) const {
  if (logger_) logger_(line);
}

std::vector<NamedTopicPartitions> ConsumerGroupCoordinator::named(
    const ConsumerAssignment& partitions) const {
  std::vector<NamedTopicPartitions> lists;
  for (const auto& [topic_id, numbers] : partitions) {
    std::optional<TopicDescription> topic = catalog_.find_by_id(topic_id);
    if (!topic) continue;
    lists.push_back(NamedTopicPartitions{topic_id, topic->name, {numbers.begin(), numbers.end()}});
  }
  return lists;
}

}  // namespace kgroups::broker
