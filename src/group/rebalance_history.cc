// SPDX-License-Identifier: Apache-2.0
#include "group/rebalance_history.h"

#include <algorithm>
#include <utility>

namespace kgroups {
namespace {

// Applies one join or leave to a sorted member list.
void apply_membership_change(std::vector<std::string>& members, bool joined,
                             const std::string& consumer) {
  const auto at = std::lower_bound(members.begin(), members.end(), consumer);
  const bool present = at != members.end() && *at == consumer;
  if (joined && !present) members.insert(at, consumer);
  if (!joined && present) members.erase(at);
}

// new_index[j]: index in `after` of before[j], or -1 if it left.
std::vector<int> new_indexes(const std::vector<std::string>& before,
                             const std::vector<std::string>& after) {
  std::vector<int> indexes(before.size(), -1);
  for (std::size_t j = 0; j < before.size(); ++j) {
    const auto at = std::lower_bound(after.begin(), after.end(), before[j]);
    if (at != after.end() && *at == before[j]) indexes[j] = static_cast<int>(at - after.begin());
  }
  return indexes;
}

int owner_of(const std::vector<int>& owners, std::size_t partition) {
  return partition < owners.size() ? owners[partition] : -1;
}

Rebalance describe(std::int64_t generation, bool joined, const std::string& consumer,
                   const std::vector<std::string>& before, const std::vector<int>& owners_before,
                   const std::vector<std::string>& after, const std::vector<int>& owners_after,
                   bool cooperative) {
  Rebalance rebalance;
  rebalance.generation = generation;
  rebalance.cause = joined ? "join" : "leave";
  rebalance.consumer = consumer;
  rebalance.members.resize(after.size());
  const std::vector<int> new_index = new_indexes(before, after);
  for (std::size_t i = 0; i < after.size(); ++i) rebalance.members[i].id = after[i];
  const std::size_t partitions = std::max(owners_before.size(), owners_after.size());
  for (std::size_t p = 0; p < partitions; ++p) {
    const int partition = static_cast<int>(p);
    const int owner = owner_of(owners_after, p);
    const int old_owner = owner_of(owners_before, p);
    // The previous owner's index among the new members; -1 if none or it left.
    const int kept_owner = old_owner >= 0 ? new_index[static_cast<std::size_t>(old_owner)] : -1;
    const bool moved = kept_owner != owner;
    if (owner >= 0) {
      MemberRebalance& member = rebalance.members[static_cast<std::size_t>(owner)];
      member.assignment.push_back(partition);
      if (!cooperative || moved) member.assigned.push_back(partition);
    }
    if (kept_owner >= 0 && (!cooperative || moved)) {
      rebalance.members[static_cast<std::size_t>(kept_owner)].revoked.push_back(partition);
    }
  }
  return rebalance;
}

}  // namespace

RebalanceHistory::RebalanceHistory(std::size_t capacity, RebalanceProtocol protocol)
    : protocol_(protocol), capacity_(std::max<std::size_t>(capacity, 1)) {}

void RebalanceHistory::drop_oldest() {
  Entry& oldest = entries_[oldest_];
  apply_membership_change(base_members_, oldest.joined, oldest.consumer);
  base_owners_.swap(oldest.owners);
  oldest_ = (oldest_ + 1) % entries_.size();
}

void RebalanceHistory::record(std::int64_t generation, bool joined, std::string_view consumer,
                              std::span<const int> owners) {
  if (entries_.size() < capacity_) {
    entries_.push_back(Entry{generation, joined, std::string(consumer),
                             std::vector<int>(owners.begin(), owners.end())});
    return;
  }
  const std::size_t slot = oldest_;
  drop_oldest();
  Entry& entry = entries_[slot];
  entry.generation = generation;
  entry.joined = joined;
  entry.consumer.assign(consumer);
  entry.owners.assign(owners.begin(), owners.end());
}

std::vector<Rebalance> RebalanceHistory::entries() const {
  std::vector<Rebalance> result;
  result.reserve(entries_.size());
  std::vector<std::string> members = base_members_;
  const std::vector<int>* owners = &base_owners_;
  const bool cooperative = protocol_ == RebalanceProtocol::kCooperative;
  for (std::size_t age = 0; age < entries_.size(); ++age) {
    const Entry& entry = kept(age);
    std::vector<std::string> before = members;
    apply_membership_change(members, entry.joined, entry.consumer);
    result.push_back(describe(entry.generation, entry.joined, entry.consumer, before, *owners,
                              members, entry.owners, cooperative));
    owners = &entry.owners;
  }
  return result;
}

}  // namespace kgroups
