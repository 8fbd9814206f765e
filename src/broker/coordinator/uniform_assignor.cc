// SPDX-License-Identifier: Apache-2.0
//
// UniformAssignor: a homogeneous path that computes each member's quota up front,
// and a general path that balances by moving partitions between subscribers.
#include "broker/coordinator/uniform_assignor.h"

#include <algorithm>
#include <cstddef>
#include <set>
#include <utility>

namespace kgroups::broker {
namespace {

constexpr std::size_t kNoOwner = static_cast<std::size_t>(-1);
// Balancing passes of the general path; each pass moves or stops, and in practice a
// few suffice.
constexpr int kMaxBalancingPasses = 64;

// Who owns each partition of each subscribed topic while the assignment is built.
class Owners {
 public:
  explicit Owners(const AssignmentSpec& spec, std::size_t member_count) : counts_(member_count) {
    for (const auto& [topic_id, partition_count] : spec.partition_counts) {
      owner_[topic_id].assign(static_cast<std::size_t>(partition_count), kNoOwner);
    }
  }
  [[nodiscard]] std::size_t owner(const TopicId& topic, std::int32_t partition) const {
    return owner_.at(topic)[static_cast<std::size_t>(partition)];
  }
  void set(const TopicId& topic, std::int32_t partition, std::size_t member) {
    std::size_t& slot = owner_.at(topic)[static_cast<std::size_t>(partition)];
    if (slot != kNoOwner) --counts_[slot];
    slot = member;
    ++counts_[member];
  }
  [[nodiscard]] std::size_t count(std::size_t member) const { return counts_[member]; }
  [[nodiscard]] const std::map<TopicId, std::vector<std::size_t>>& all() const { return owner_; }

  [[nodiscard]] std::vector<ConsumerAssignment> to_assignments() const {
    std::vector<ConsumerAssignment> result(counts_.size());
    // Each member's set of the current topic, found once per topic; partitions come in
    // ascending order, so each goes at the end of its set.
    std::vector<std::set<std::int32_t>*> sets(counts_.size());
    for (const auto& [topic, owners] : owner_) {
      std::fill(sets.begin(), sets.end(), nullptr);
      for (std::size_t partition = 0; partition < owners.size(); ++partition) {
        const std::size_t member = owners[partition];
        if (member == kNoOwner) continue;
        if (sets[member] == nullptr) sets[member] = &result[member][topic];
        sets[member]->emplace_hint(sets[member]->end(), static_cast<std::int32_t>(partition));
      }
    }
    return result;
  }

 private:
  std::map<TopicId, std::vector<std::size_t>> owner_;  // topic -> partition -> member index
  std::vector<std::size_t> counts_;                    // partitions per member
};

// Returns the partitions of the member's current target it may keep: still existing,
// of topics it subscribes to, ascending.
std::vector<std::pair<TopicId, std::int32_t>> keepable(const AssignmentSpec& spec,
                                                       const AssignmentMember& member) {
  std::vector<std::pair<TopicId, std::int32_t>> partitions;
  for (const auto& [topic, current] : *member.current_target) {
    auto count = spec.partition_counts.find(topic);
    if (count == spec.partition_counts.end() ||
        !std::binary_search(member.subscribed_topic_ids.begin(), member.subscribed_topic_ids.end(),
                            topic)) {
      continue;
    }
    for (std::int32_t partition : current) {
      if (partition >= 0 && partition < count->second) partitions.emplace_back(topic, partition);
    }
  }
  return partitions;
}

bool homogeneous(const AssignmentSpec& spec) {
  for (const AssignmentMember& member : spec.members) {
    if (member.subscribed_topic_ids != spec.members.front().subscribed_topic_ids) return false;
  }
  return true;
}

std::vector<ConsumerAssignment> assign_homogeneous(const AssignmentSpec& spec) {
  const std::size_t members = spec.members.size();
  Owners owners(spec, members);
  std::size_t total = 0;
  for (const TopicId& topic : spec.members.front().subscribed_topic_ids) {
    total += static_cast<std::size_t>(spec.partition_counts.at(topic));
  }
  const std::size_t min_quota = total / members;
  std::size_t extra_slots = total % members;
  std::vector<std::size_t> quota(members, min_quota);
  // Each member keeps up to its minimum quota of its current target; those that had
  // more keep one more while extra slots remain, so the fewest partitions move.
  std::vector<std::vector<std::pair<TopicId, std::int32_t>>> kept(members);
  for (std::size_t i = 0; i < members; ++i) kept[i] = keepable(spec, spec.members[i]);
  for (std::size_t i = 0; i < members; ++i) {
    if (kept[i].size() > min_quota && extra_slots > 0) {
      ++quota[i];
      --extra_slots;
    }
  }
  for (std::size_t i = 0; i < members && extra_slots > 0; ++i) {
    if (quota[i] == min_quota) {
      ++quota[i];
      --extra_slots;
    }
  }
  for (std::size_t i = 0; i < members; ++i) {
    for (const auto& [topic, partition] : kept[i]) {
      if (owners.count(i) == quota[i]) break;
      if (owners.owner(topic, partition) == kNoOwner) owners.set(topic, partition, i);
    }
  }
  // The rest fill the members below their quota, in member order.
  std::size_t next_member = 0;
  for (const auto& [topic, partition_owners] : owners.all()) {
    for (std::size_t partition = 0; partition < partition_owners.size(); ++partition) {
      if (partition_owners[partition] != kNoOwner) continue;
      while (owners.count(next_member) >= quota[next_member]) ++next_member;
      owners.set(topic, static_cast<std::int32_t>(partition), next_member);
    }
  }
  return owners.to_assignments();
}

std::vector<ConsumerAssignment> assign_heterogeneous(const AssignmentSpec& spec) {
  const std::size_t members = spec.members.size();
  Owners owners(spec, members);
  std::map<TopicId, std::vector<std::size_t>> subscribers;
  for (std::size_t i = 0; i < members; ++i) {
    for (const TopicId& topic : spec.members[i].subscribed_topic_ids) {
      subscribers[topic].push_back(i);
    }
    for (const auto& [topic, partition] : keepable(spec, spec.members[i])) {
      if (owners.owner(topic, partition) == kNoOwner) owners.set(topic, partition, i);
    }
  }
  auto least_loaded = [&](const std::vector<std::size_t>& candidates) {
    std::size_t best = candidates.front();
    for (std::size_t candidate : candidates) {
      if (owners.count(candidate) < owners.count(best)) best = candidate;
    }
    return best;
  };
  // Topics with fewer subscribers first: their partitions have fewer places to go.
  std::vector<TopicId> topics;
  topics.reserve(subscribers.size());
  for (const auto& [topic, list] : subscribers) topics.push_back(topic);
  std::stable_sort(topics.begin(), topics.end(), [&](const TopicId& a, const TopicId& b) {
    return subscribers[a].size() < subscribers[b].size();
  });
  for (const TopicId& topic : topics) {
    const auto partition_count = static_cast<std::int32_t>(spec.partition_counts.at(topic));
    for (std::int32_t partition = 0; partition < partition_count; ++partition) {
      if (owners.owner(topic, partition) == kNoOwner) {
        owners.set(topic, partition, least_loaded(subscribers[topic]));
      }
    }
  }
  // Each move lowers the sum of squared counts, so the passes end.
  for (int pass = 0; pass < kMaxBalancingPasses; ++pass) {
    bool moved = false;
    for (const TopicId& topic : topics) {
      const auto partition_count = static_cast<std::int32_t>(spec.partition_counts.at(topic));
      for (std::int32_t partition = partition_count - 1; partition >= 0; --partition) {
        const std::size_t owner = owners.owner(topic, partition);
        const std::size_t target = least_loaded(subscribers[topic]);
        if (owners.count(target) + 1 < owners.count(owner)) {
          owners.set(topic, partition, target);
          moved = true;
        }
      }
    }
    if (!moved) break;
  }
  return owners.to_assignments();
}

}  // namespace

std::vector<ConsumerAssignment> UniformAssignor::assign(const AssignmentSpec& spec) const {
  if (spec.members.empty()) return {};
  return homogeneous(spec) ? assign_homogeneous(spec) : assign_heterogeneous(spec);
}

}  // namespace kgroups::broker
