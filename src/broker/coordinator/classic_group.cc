// SPDX-License-Identifier: Apache-2.0
#include "broker/coordinator/classic_group.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <utility>

#include "broker/coordinator/stored_bytes.h"

namespace kgroups::broker {
namespace {

// Kafka's GroupState.validPreviousStates, read as "from -> to".
bool transition_allowed(ClassicGroupState from, ClassicGroupState to) {
  switch (to) {
    case ClassicGroupState::kPreparingRebalance:
      return from == ClassicGroupState::kEmpty || from == ClassicGroupState::kStable ||
             from == ClassicGroupState::kCompletingRebalance;
    case ClassicGroupState::kCompletingRebalance:
      return from == ClassicGroupState::kPreparingRebalance;
    case ClassicGroupState::kStable:
      return from == ClassicGroupState::kCompletingRebalance;
    case ClassicGroupState::kEmpty:
      return from == ClassicGroupState::kPreparingRebalance;
    case ClassicGroupState::kDead:
      return true;
  }
  return false;
}

void keep_earliest(std::optional<Clock::TimePoint>& earliest,
                   const std::optional<Clock::TimePoint>& candidate) {
  if (candidate && (!earliest || *candidate < *earliest)) earliest = candidate;
}

}  // namespace

std::string_view group_state_name(ClassicGroupState state) {
  switch (state) {
    case ClassicGroupState::kEmpty:
      return "Empty";
    case ClassicGroupState::kPreparingRebalance:
      return "PreparingRebalance";
    case ClassicGroupState::kCompletingRebalance:
      return "CompletingRebalance";
    case ClassicGroupState::kStable:
      return "Stable";
    case ClassicGroupState::kDead:
      return "Dead";
  }
  return "Dead";
}

void ClassicGroup::transition_to(ClassicGroupState next) {
  if (!transition_allowed(state_, next)) {
    std::fprintf(stderr, "kgroups coordinator bug: group \"%s\" cannot go from %s to %s\n",
                 group_id_.c_str(), group_state_name(state_).data(), group_state_name(next).data());
    std::abort();
  }
  state_ = next;
}

GroupMember* ClassicGroup::find_member(std::string_view member_id) {
  auto found = members_.find(member_id);
  return found == members_.end() ? nullptr : &found->second;
}

const GroupMember* ClassicGroup::find_member(std::string_view member_id) const {
  auto found = members_.find(member_id);
  return found == members_.end() ? nullptr : &found->second;
}

GroupMember& ClassicGroup::add_member(GroupMember member) {
  if (members_.empty()) protocol_type_ = member.protocol_type;
  if (leader_id_.empty()) leader_id_ = member.member_id;
  member.join_order = next_join_order_++;
  if (member.group_instance_id) static_members_[*member.group_instance_id] = member.member_id;
  members_bytes_ += member_entry_bytes(member);
  protocols_metadata_bytes_ += protocols_metadata_bytes(member.protocols);
  assignment_bytes_ += member.assignment.size();
  std::string member_id = member.member_id;
  auto [position, inserted] = members_.emplace(std::move(member_id), std::move(member));
  (void)inserted;
  return position->second;
}

void ClassicGroup::remove_member(std::string_view member_id_view) {
  std::string member_id(member_id_view);  // the view may point into the member erased below
  auto found = members_.find(member_id);
  if (found == members_.end()) return;
  const GroupMember& member = found->second;
  members_bytes_ -= member_entry_bytes(member);
  protocols_metadata_bytes_ -= protocols_metadata_bytes(member.protocols);
  assignment_bytes_ -= member.assignment.size();
  if (member.group_instance_id) {
    auto bound = static_members_.find(*member.group_instance_id);
    if (bound != static_members_.end() && bound->second == member_id) static_members_.erase(bound);
  }
  members_.erase(found);
  mark_synced(member_id);
  if (leader_id_ != member_id) return;
  leader_id_.clear();
  const GroupMember* earliest = nullptr;
  for (const auto& [id, member] : members_) {
    if (earliest == nullptr || member.join_order < earliest->join_order) earliest = &member;
  }
  if (earliest != nullptr) leader_id_ = earliest->member_id;
}

const std::string* ClassicGroup::static_member_id(std::string_view group_instance_id) const {
  auto found = static_members_.find(group_instance_id);
  return found == static_members_.end() ? nullptr : &found->second;
}

GroupError ClassicGroup::check_member(std::string_view member_id,
                                      std::optional<std::string_view> group_instance_id) const {
  if (group_instance_id) {
    const std::string* bound = static_member_id(*group_instance_id);
    if (bound == nullptr) return GroupError::kUnknownMemberId;
    return *bound == member_id ? GroupError::kNone : GroupError::kFencedInstanceId;
  }
  return find_member(member_id) == nullptr ? GroupError::kUnknownMemberId : GroupError::kNone;
}

GroupMember& ClassicGroup::replace_static_member(std::string_view old_member_id_view,
                                                 std::string new_member_id) {
  std::string old_member_id(old_member_id_view);  // the view may point into the node moved below
  auto node = members_.extract(old_member_id);
  GroupMember& member = node.mapped();
  members_bytes_ -= member_entry_bytes(member);
  member.member_id = new_member_id;
  members_bytes_ += member_entry_bytes(member);
  static_members_[*member.group_instance_id] = new_member_id;
  if (leader_id_ == old_member_id) leader_id_ = new_member_id;
  // Unlike Kafka, a pending SyncGroup moves to the new id: the new instance syncs in
  // its place, and the old id's entry would otherwise end the generation.
  if (deadlines_.pending_sync_members.erase(old_member_id) > 0) {
    deadlines_.pending_sync_members.insert(new_member_id);
  }
  node.key() = std::move(new_member_id);
  return members_.insert(std::move(node)).position->second;
}

bool ClassicGroup::elect_joined_leader() {
  if (members_.empty()) return true;
  const GroupMember* leader = find_member(leader_id_);
  if (leader != nullptr && leader->awaiting_join()) return true;
  const GroupMember* earliest = nullptr;
  for (const auto& [id, member] : members_) {
    if (member.awaiting_join() &&
        (earliest == nullptr || member.join_order < earliest->join_order)) {
      earliest = &member;
    }
  }
  if (earliest == nullptr) return false;
  leader_id_ = earliest->member_id;
  return true;
}

void ClassicGroup::update_protocols(GroupMember& member, std::vector<GroupProtocol> protocols) {
  members_bytes_ = members_bytes_ - protocols_bytes(member.protocols) + protocols_bytes(protocols);
  protocols_metadata_bytes_ = protocols_metadata_bytes_ -
                              protocols_metadata_bytes(member.protocols) +
                              protocols_metadata_bytes(protocols);
  member.protocols = std::move(protocols);
}

void ClassicGroup::set_assignment(GroupMember& member, std::vector<std::uint8_t> assignment) {
  members_bytes_ = members_bytes_ - member.assignment.size() + assignment.size();
  assignment_bytes_ = assignment_bytes_ - member.assignment.size() + assignment.size();
  member.assignment = std::move(assignment);
}

void ClassicGroup::clear_assignments() {
  for (auto& [id, member] : members_) set_assignment(member, {});
}

void ClassicGroup::add_pending_member(const std::string& member_id, Clock::TimePoint expiry) {
  auto [position, inserted] = pending_members_.insert_or_assign(member_id, expiry);
  (void)position;
  if (inserted) pending_bytes_ += pending_member_bytes(member_id);
}

bool ClassicGroup::remove_pending_member(std::string_view member_id) {
  auto found = pending_members_.find(member_id);
  if (found == pending_members_.end()) return false;
  pending_bytes_ -= pending_member_bytes(found->first);
  pending_members_.erase(found);
  return true;
}

std::size_t ClassicGroup::stored_bytes() const {
  return group_entry_bytes(group_id_) + protocol_type_.size() + members_bytes_ + pending_bytes_ +
         offsets_.stored_bytes();
}

std::size_t ClassicGroup::recount_stored_bytes() const {
  std::size_t bytes = group_entry_bytes(group_id_) + protocol_type_.size();
  for (const auto& [id, member] : members_) bytes += member_entry_bytes(member);
  for (const auto& [id, expiry] : pending_members_) bytes += pending_member_bytes(id);
  for (const PartitionOffset& offset : offsets_.fetch_all()) {
    bytes += offset_entry_bytes(offset.topic_partition.topic, offset.committed.metadata);
  }
  return bytes;
}

void ClassicGroup::mark_synced(std::string_view member_id) {
  auto found = deadlines_.pending_sync_members.find(member_id);
  if (found != deadlines_.pending_sync_members.end()) deadlines_.pending_sync_members.erase(found);
  if (deadlines_.pending_sync_members.empty()) deadlines_.sync_deadline.reset();
}

bool ClassicGroup::supports_protocols(std::string_view protocol_type,
                                      const std::vector<GroupProtocol>& protocols,
                                      std::string_view member_id) const {
  if (protocol_type.empty() || protocols.empty()) return false;
  bool has_other_members = std::any_of(members_.begin(), members_.end(),
                                       [&](const auto& entry) { return entry.first != member_id; });
  if (!has_other_members) return true;
  if (protocol_type != protocol_type_) return false;
  return std::any_of(protocols.begin(), protocols.end(), [&](const GroupProtocol& protocol) {
    return std::all_of(members_.begin(), members_.end(), [&](const auto& entry) {
      return entry.first == member_id || entry.second.metadata_for(protocol.name) != nullptr;
    });
  });
}

bool ClassicGroup::all_members_joined() const {
  return pending_members_.empty() &&
         std::all_of(members_.begin(), members_.end(),
                     [](const auto& entry) { return entry.second.awaiting_join(); });
}

std::int32_t ClassicGroup::rebalance_timeout_ms() const {
  std::int32_t longest = 0;
  for (const auto& [id, member] : members_)
    longest = std::max(longest, member.rebalance_timeout_ms);
  return longest;
}

void ClassicGroup::load_generation(std::int32_t generation_id, std::string protocol_name,
                                   std::string_view leader_id) {
  generation_id_ = generation_id;
  if (members_.empty()) {
    state_ = ClassicGroupState::kEmpty;
    protocol_name_.clear();
    leader_id_.clear();
    return;
  }
  state_ = ClassicGroupState::kStable;  // Kafka loads a group with members as Stable
  protocol_name_ = std::move(protocol_name);
  if (members_.contains(leader_id)) leader_id_ = std::string(leader_id);
}

void ClassicGroup::init_next_generation() {
  transition_to(members_.empty() ? ClassicGroupState::kEmpty
                                 : ClassicGroupState::kCompletingRebalance);
  ++generation_id_;
  protocol_name_ = members_.empty() ? std::string() : select_protocol();
}

std::string ClassicGroup::select_protocol() const {
  const GroupMember* leader = find_member(leader_id_);
  std::vector<std::string> candidates;
  for (const GroupProtocol& protocol : leader->protocols) {
    bool everyone = std::all_of(members_.begin(), members_.end(), [&](const auto& entry) {
      return entry.second.metadata_for(protocol.name) != nullptr;
    });
    if (everyone) candidates.push_back(protocol.name);
  }
  std::vector<int> votes(candidates.size(), 0);
  for (const auto& [id, member] : members_) {
    for (const GroupProtocol& protocol : member.protocols) {
      auto candidate = std::find(candidates.begin(), candidates.end(), protocol.name);
      if (candidate != candidates.end()) {
        ++votes[static_cast<std::size_t>(candidate - candidates.begin())];
        break;
      }
    }
  }
  auto winner = std::max_element(votes.begin(), votes.end());  // first of equal maxima
  return candidates.empty() ? std::string()
                            : candidates[static_cast<std::size_t>(winner - votes.begin())];
}

std::vector<JoinedMember> ClassicGroup::joined_members() const {
  std::vector<const GroupMember*> ordered;
  for (const auto& [id, member] : members_) ordered.push_back(&member);
  std::sort(ordered.begin(), ordered.end(), [](const GroupMember* left, const GroupMember* right) {
    return left->join_order < right->join_order;
  });
  std::vector<JoinedMember> joined;
  joined.reserve(ordered.size());
  for (const GroupMember* member : ordered) {
    const std::vector<std::uint8_t>* metadata = member->metadata_for(protocol_name_);
    joined.push_back(JoinedMember{member->member_id,
                                  metadata ? *metadata : std::vector<std::uint8_t>{},
                                  member->group_instance_id});
  }
  return joined;
}

std::optional<Clock::TimePoint> ClassicGroup::next_deadline() const {
  std::optional<Clock::TimePoint> earliest;
  keep_earliest(earliest, deadlines_.initial_delay_end);
  keep_earliest(earliest, deadlines_.join_deadline);
  keep_earliest(earliest, deadlines_.sync_deadline);
  for (const auto& [id, deadline] : pending_members_) keep_earliest(earliest, deadline);
  for (const auto& [id, member] : members_) keep_earliest(earliest, member.expiry());
  return earliest;
}

}  // namespace kgroups::broker
