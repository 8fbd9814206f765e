// SPDX-License-Identifier: Apache-2.0
#include "broker/events/replay_tracker.h"

#include <algorithm>
#include <functional>
#include <nlohmann/json.hpp>
#include <string_view>
#include <unordered_map>

namespace kgroups::broker {
namespace {

// The host part of a connection's "host:port".
std::string_view peer_host(std::string_view peer) {
  const std::size_t colon = peer.rfind(':');
  return colon == std::string_view::npos ? peer : peer.substr(0, colon);
}

// Whether a member's recorded host ("/127.0.0.1", Kafka's form; "" when not recorded) is the
// host of the connection `peer`.
bool host_matches(std::string_view client_host, std::string_view peer) {
  if (client_host.empty()) return true;
  return client_host.front() == '/' && client_host.substr(1) == peer_host(peer);
}

}  // namespace

std::size_t ReplayTracker::PartitionHash::operator()(PartitionRef ref) const noexcept {
  const std::size_t topic = std::hash<std::string_view>{}(ref.topic);
  return topic ^ (std::hash<std::int32_t>{}(ref.partition) + 0x9e3779b97f4a7c15ULL + (topic << 6U) +
                  (topic >> 2U));
}

ReplayTracker::TrackedGroup& ReplayTracker::group_for(GroupType type, std::string_view group_id) {
  auto found = groups_.find(group_id);
  if (found == groups_.end()) {
    auto group = std::make_unique<TrackedGroup>();
    group->type = type;
    group->group_id = std::string(group_id);
    found = groups_.emplace(group->group_id, std::move(group)).first;
  }
  return *found->second;
}

void ReplayTracker::on_member_joined(GroupType type, std::string_view group_id,
                                     const ObservedMember& member) {
  // A share group has no rebalances to replay from: its redeliveries are records_released.
  if (type == GroupType::kShare) return;
  TrackedGroup& group = group_for(type, group_id);
  auto same = std::find_if(group.members.begin(), group.members.end(), [&](const Member& known) {
    return known.member_id == member.member_id;
  });
  if (same == group.members.end()) {
    same = group.members.insert(group.members.end(), Member{});
    same->serial = ++next_serial_;
  }
  same->member_id = std::string(member.member_id);
  same->client_id = std::string(member.client_id);
  same->client_host = std::string(member.client_host);
}

void ReplayTracker::on_member_left(GroupType /*type*/, std::string_view group_id,
                                   const ObservedMember& member, std::string_view /*reason*/) {
  forget_member(group_id, member.member_id);
}

void ReplayTracker::on_member_expired(GroupType /*type*/, std::string_view group_id,
                                      const ObservedMember& member, std::string_view /*reason*/) {
  forget_member(group_id, member.member_id);
}

void ReplayTracker::forget_member(std::string_view group_id, std::string_view member_id) {
  auto found = groups_.find(group_id);
  if (found == groups_.end()) return;
  std::vector<Member>& members = found->second->members;
  std::erase_if(members, [&](const Member& member) { return member.member_id == member_id; });
}

bool ReplayTracker::hold(std::size_t bytes) {
  if (!charge_.hold(bytes)) {
    ++untracked_;
    return false;
  }
  held_bytes_ += bytes;
  return true;
}

void ReplayTracker::release(std::size_t bytes) {
  held_bytes_ -= bytes;
  charge_.release(bytes);
}

void ReplayTracker::on_rebalance_completed(const ObservedRebalance& rebalance) {
  TrackedGroup& group = group_for(rebalance.type, rebalance.group_id);
  group.generation = rebalance.generation;
  unclaim(group);
  // Serials by member id, so that naming each member's owner costs O(members) in all.
  std::unordered_map<std::string_view, std::uint64_t> serials;
  serials.reserve(group.members.size());
  for (const Member& known : group.members) serials.emplace(known.member_id, known.serial);
  for (const ObservedAssignment& member : rebalance.assignment) {
    if (!member.partitions) continue;
    const auto known = serials.find(member.member_id);
    const std::uint64_t owner = known == serials.end() ? 0 : known->second;
    for (const AssignedTopicPartitions& topic : *member.partitions) {
      const std::int32_t existing = cluster_.partition_count(topic.topic);
      if (existing == 0) continue;
      for (const std::int32_t partition : topic.partitions) {
        if (partition < 0 || partition >= existing) continue;
        TopicPartition key{topic.topic, partition};
        auto mark = group.partitions.find(key);
        if (mark == group.partitions.end()) {
          if (!hold(mark_bytes(topic.topic))) continue;
          group.mark_bytes += mark_bytes(topic.topic);
          mark = group.partitions.emplace(key, PartitionMark{}).first;
        }
        mark->second.owner = owner;
        std::vector<Claim>& claims = claims_[key];
        // A partition listed twice (by a faulty leader) is claimed once.
        if (std::any_of(claims.begin(), claims.end(),
                        [&](const Claim& claim) { return claim.group == &group; })) {
          continue;
        }
        if (!hold(claim_bytes(topic.topic))) {
          if (claims.empty()) claims_.erase(key);
          continue;
        }
        claims.push_back(Claim{.group = &group, .mark = &mark->second});
        group.assigned.push_back(std::move(key));
      }
    }
  }
}

void ReplayTracker::unclaim(TrackedGroup& group) {
  for (const TopicPartition& key : group.assigned) {
    if (auto mark = group.partitions.find(key); mark != group.partitions.end()) {
      mark->second.owner = 0;
    }
    release(claim_bytes(key.topic));
    auto claims = claims_.find(key);
    if (claims == claims_.end()) continue;
    std::erase_if(claims->second, [&](const Claim& claim) { return claim.group == &group; });
    if (claims->second.empty()) claims_.erase(claims);
  }
  group.assigned.clear();
}

void ReplayTracker::on_group_deleted(GroupType /*type*/, std::string_view group_id) {
  forget_group(group_id);
}

void ReplayTracker::on_group_forgotten(GroupType /*type*/, std::string_view group_id) {
  forget_group(group_id);
}

void ReplayTracker::forget_group(std::string_view group_id) {
  auto found = groups_.find(group_id);
  if (found == groups_.end()) return;
  unclaim(*found->second);
  release(found->second->mark_bytes);
  groups_.erase(found);
}

void ReplayTracker::forget_topic(std::string_view topic) {
  for (auto& [id, group] : groups_) {
    std::erase_if(group->assigned, [&](const TopicPartition& key) {
      if (key.topic != topic) return false;
      release(claim_bytes(topic));
      return true;
    });
    std::erase_if(group->partitions, [&](const auto& entry) {
      if (entry.first.topic != topic) return false;
      group->mark_bytes -= mark_bytes(topic);
      release(mark_bytes(topic));
      return true;
    });
  }
  std::erase_if(claims_, [&](const auto& entry) { return entry.first.topic == topic; });
}

std::size_t ReplayTracker::mark_count() const {
  std::size_t count = 0;
  for (const auto& [id, group] : groups_) count += group->partitions.size();
  return count;
}

const ReplayTracker::Member* ReplayTracker::matching_member(const TrackedGroup& group,
                                                            const PartitionMark& mark,
                                                            const FetchingClient& client,
                                                            bool& found) {
  const Member* match = nullptr;
  std::size_t matches = 0;
  for (const Member& member : group.members) {
    if (member.client_id != client.client_id || !host_matches(member.client_host, client.peer)) {
      continue;
    }
    if (mark.owner != 0 && member.serial == mark.owner) {
      found = true;
      return &member;
    }
    match = &member;
    ++matches;
  }
  found = matches > 0;
  return matches == 1 ? match : nullptr;
}

void ReplayTracker::on_records_delivered(const FetchingClient& client, std::string_view topic,
                                         std::int32_t partition, std::int64_t fetch_offset,
                                         std::int64_t end_offset) {
  if (end_offset <= fetch_offset) return;
  const auto claims = claims_.find(PartitionRef{topic, partition});
  if (claims == claims_.end()) return;
  for (const Claim& claim : claims->second) {
    bool found = false;
    const Member* member = matching_member(*claim.group, *claim.mark, client, found);
    if (!found) continue;
    PartitionMark& mark = *claim.mark;
    const bool asked_again =
        mark.last_fetch_offset == fetch_offset && mark.last_peer == client.peer;
    if (!asked_again && fetch_offset < mark.delivered_end) {
      publish_replay(*claim.group, member, topic, partition, fetch_offset,
                     std::min(end_offset, mark.delivered_end));
    }
    mark.delivered_end = std::max(mark.delivered_end, end_offset);
    mark.last_fetch_offset = fetch_offset;
    mark.last_peer.assign(client.peer);
  }
}

void ReplayTracker::publish_replay(const TrackedGroup& group, const Member* member,
                                   std::string_view topic, std::int32_t partition,
                                   std::int64_t from, std::int64_t to) {
  nlohmann::ordered_json payload{
      {"group_id", group.group_id},
      {"group_type", group_type_name(group.type)},
      {"generation", group.generation},
      {"member_id", member != nullptr ? nlohmann::ordered_json(member->member_id)
                                      : nlohmann::ordered_json(nullptr)},
      {"topic", topic},
      {"partition", partition},
      {"from", from},
      {"to", to},
      {"count", to - from},
  };
  log_.publish("records_replayed", group.group_id, payload);
}

}  // namespace kgroups::broker
