// SPDX-License-Identifier: Apache-2.0
#include "broker/coordinator/classic_group_context.h"

#include <algorithm>
#include <cstdio>
#include <utility>

#include "broker/coordinator/consumer_protocol.h"

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

ClassicGroupContext::ClassicGroupContext(CoordinatorConfig config, const Clock& clock,
                                         Logger logger)
    : config(config),
      clock_(clock),
      logger_(std::move(logger)),
      member_id_random_(std::random_device{}()) {}

void ClassicGroupContext::log(const std::string& line) const {
  if (logger_) logger_(line);
}

std::string ClassicGroupContext::label(const ClassicGroup& group) {
  return "group \"" + group.group_id() + "\": ";
}

void ClassicGroupContext::complete_join_call(GroupMember& member, JoinGroupResult result) {
  if (!member.join_callback) return;
  completions.enqueue([callback = std::move(member.join_callback),
                       result = std::move(result)]() mutable { callback(std::move(result)); });
  member.join_callback = nullptr;
}

void ClassicGroupContext::complete_sync_call(GroupMember& member, SyncGroupResult result) {
  if (!member.sync_callback) return;
  completions.enqueue([callback = std::move(member.sync_callback),
                       result = std::move(result)]() mutable { callback(std::move(result)); });
  member.sync_callback = nullptr;
}

void ClassicGroupContext::fail_join_call(JoinGroupCallback& done, GroupError error,
                                         std::string member_id) {
  completions.enqueue([callback = std::move(done), error, member_id = std::move(member_id)] {
    callback(join_error(error, member_id));
  });
}

void ClassicGroupContext::fail_sync_call(SyncGroupCallback& done, GroupError error) {
  completions.enqueue([callback = std::move(done), error] { callback(sync_error(error)); });
}

void ClassicGroupContext::refresh_session(GroupMember& member) const {
  member.session_deadline = now() + std::chrono::milliseconds(member.session_timeout_ms);
}

std::string ClassicGroupContext::new_member_id(std::string_view prefix) {
  // clientId-UUID (instanceId-UUID for a static member), as Kafka forms member ids
  // (a random version-4 UUID).
  std::uint64_t high = member_id_random_();
  std::uint64_t low = member_id_random_();
  high = (high & ~0xF000ULL) | 0x4000ULL;
  low = (low & ~(0xC0ULL << 56)) | (0x80ULL << 56);
  char uuid[37];
  std::snprintf(uuid, sizeof uuid, "%08x-%04x-%04x-%04x-%012llx", static_cast<unsigned>(high >> 32),
                static_cast<unsigned>((high >> 16) & 0xFFFF), static_cast<unsigned>(high & 0xFFFF),
                static_cast<unsigned>(low >> 48),
                static_cast<unsigned long long>(low & 0xFFFFFFFFFFFFULL));
  // Cut the prefix so the member id fits max_id_length, at a UTF-8 character
  // boundary so clients decode the id to the same bytes.
  constexpr std::size_t kSuffixBytes = 1 + 36;  // "-" + UUID
  std::size_t keep = config.max_id_length > kSuffixBytes
                         ? std::min(prefix.size(), config.max_id_length - kSuffixBytes)
                         : 0;
  while (keep > 0 && keep < prefix.size() &&
         (static_cast<unsigned char>(prefix[keep]) & 0xC0) == 0x80) {
    --keep;
  }
  return std::string(prefix.substr(0, keep)) + "-" + uuid;
}

void ClassicGroupContext::observe_member_joined(const ClassicGroup& group,
                                                const GroupMember& member) const {
  if (observer != nullptr) {
    observer->on_member_joined(GroupType::kClassic, group.group_id(), observed(member));
  }
}

void ClassicGroupContext::observe_member_left(const ClassicGroup& group, const GroupMember& member,
                                              std::string_view reason) const {
  if (observer != nullptr) {
    observer->on_member_left(GroupType::kClassic, group.group_id(), observed(member), reason);
  }
}

void ClassicGroupContext::observe_member_expired(const ClassicGroup& group,
                                                 const GroupMember& member,
                                                 std::string_view reason) const {
  if (observer != nullptr) {
    observer->on_member_expired(GroupType::kClassic, group.group_id(), observed(member), reason);
  }
}

void ClassicGroupContext::observe_rebalance_completed(const ClassicGroup& group) const {
  if (observer == nullptr) return;
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
  observer->on_rebalance_completed(rebalance);
}

JoinGroupResult current_generation_result(const ClassicGroup& group, const GroupMember& member) {
  JoinGroupResult result;
  result.generation_id = group.generation_id();
  result.protocol_type = group.protocol_type();
  result.protocol_name = group.protocol_name();
  result.leader_id = group.leader_id();
  result.member_id = member.member_id;
  if (group.is_leader(member.member_id)) result.members = group.joined_members();
  return result;
}

}  // namespace kgroups::broker
