// SPDX-License-Identifier: Apache-2.0
#include "group/rebalance_history.h"

#include <algorithm>
#include <iterator>
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

// owners[p]: the index of partition p's owner among the members, or -1.
void owners_of(const std::vector<int>& partitions, const std::vector<std::size_t>& ends,
               int num_partitions, std::vector<int>& owners) {
  owners.assign(static_cast<std::size_t>(num_partitions), -1);
  std::size_t begin = 0;
  for (std::size_t member = 0; member < ends.size(); ++member) {
    for (std::size_t k = begin; k < ends[member]; ++k) {
      owners[static_cast<std::size_t>(partitions[k])] = static_cast<int>(member);
    }
    begin = ends[member];
  }
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

struct Generation {
  const std::vector<std::string>& members;
  const std::vector<int>& owners;
};

Rebalance describe(std::int64_t generation, bool joined, const std::string& consumer,
                   Generation before, Generation after, bool cooperative) {
  Rebalance rebalance;
  rebalance.generation = generation;
  rebalance.cause = joined ? "join" : "leave";
  rebalance.consumer = consumer;
  rebalance.members.resize(after.members.size());
  for (std::size_t i = 0; i < after.members.size(); ++i) {
    rebalance.members[i].id = after.members[i];
  }
  const std::vector<int> new_index = new_indexes(before.members, after.members);
  for (std::size_t p = 0; p < after.owners.size(); ++p) {
    const int partition = static_cast<int>(p);
    const int owner = after.owners[p];
    const int old_owner = before.owners[p];
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

RebalanceHistory::RebalanceHistory(std::size_t capacity, int num_partitions,
                                   RebalanceProtocol protocol)
    : protocol_(protocol),
      capacity_(std::max<std::size_t>(capacity, 1)),
      fold_batch_(std::max<std::size_t>(capacity_ / 8, 1)),
      num_partitions_(num_partitions) {}

RebalanceHistory::Recording RebalanceHistory::record(std::int64_t generation, bool joined,
                                                     std::string_view consumer,
                                                     std::size_t member_count) {
  if (entries_.size() == capacity_ + fold_batch_ - 1) fold_oldest(fold_batch_);
  if (spare_.empty()) {
    entries_.emplace_back();
  } else {
    entries_.push_back(std::move(spare_.back()));
    spare_.pop_back();
  }
  Entry& entry = entries_.back();
  entry.generation = generation;
  entry.joined = joined;
  entry.consumer.assign(consumer);
  entry.partitions.resize(member_count == 0 ? 0 : static_cast<std::size_t>(num_partitions_));
  entry.ends.resize(member_count);
  return Recording{entry.partitions.data(), entry.ends.data()};
}

void RebalanceHistory::fold_oldest(std::size_t count) {
  // Each consumer's last join or leave among the folded entries decides
  // whether it is a member afterwards.
  std::vector<std::pair<std::string_view, bool>> last_change;
  last_change.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    last_change.emplace_back(entries_[i].consumer, entries_[i].joined);
  }
  std::stable_sort(last_change.begin(), last_change.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> members;
  members.reserve(base_members_.size() + count);
  auto base = base_members_.begin();
  for (std::size_t i = 0; i < last_change.size(); ++i) {
    if (i + 1 < last_change.size() && last_change[i + 1].first == last_change[i].first) continue;
    const auto [id, joined] = last_change[i];
    while (base != base_members_.end() && *base < id) members.push_back(std::move(*base++));
    if (base != base_members_.end() && *base == id) ++base;
    if (joined) members.emplace_back(id);
  }
  std::move(base, base_members_.end(), std::back_inserter(members));
  base_members_ = std::move(members);

  std::swap(base_, entries_[count - 1]);
  for (std::size_t i = 0; i < count; ++i) spare_.push_back(std::move(entries_[i]));
  entries_.erase(entries_.begin(), entries_.begin() + static_cast<std::ptrdiff_t>(count));
}

std::vector<Rebalance> RebalanceHistory::entries() const {
  std::vector<Rebalance> result;
  const std::size_t hidden = entries_.size() > capacity_ ? entries_.size() - capacity_ : 0;
  result.reserve(entries_.size() - hidden);
  const bool cooperative = protocol_ == RebalanceProtocol::kCooperative;
  std::vector<std::string> members = base_members_;
  std::vector<int> owners;
  owners_of(base_.partitions, base_.ends, num_partitions_, owners);
  std::vector<std::string> next_members;
  std::vector<int> next_owners;
  for (std::size_t age = 0; age < entries_.size(); ++age) {
    const Entry& entry = entries_[age];
    next_members = members;
    apply_membership_change(next_members, entry.joined, entry.consumer);
    owners_of(entry.partitions, entry.ends, num_partitions_, next_owners);
    if (age >= hidden) {
      result.push_back(describe(entry.generation, entry.joined, entry.consumer,
                                Generation{members, owners}, Generation{next_members, next_owners},
                                cooperative));
    }
    members.swap(next_members);
    owners.swap(next_owners);
  }
  return result;
}

}  // namespace kgroups
