// SPDX-License-Identifier: Apache-2.0
//
// ClassicGroup: one classic consumer group's state as the coordinator keeps it: Kafka's group
// state, generation, protocol type and selected protocol, leader, members, the
// rebalance's deadlines, and the committed offsets. It knows the group's own rules
// (leader election, protocol vote, allowed state transitions); the coordinator
// decides when to apply them. It counts, as they change, the bytes it keeps
// (stored_bytes.h) and the bytes max_group_metadata_bytes bounds, so every change to
// a member's ids, protocols or assignment goes through its methods.
// Static members (KIP-345) are also found by their group instance id, which is bound
// to one member id at a time.
// Not thread-safe; owned by the GroupCoordinator.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "broker/coordinator/clock.h"
#include "broker/coordinator/group_error.h"
#include "broker/coordinator/group_member.h"
#include "broker/coordinator/join_group.h"
#include "broker/coordinator/offset_store.h"

namespace kgroups::broker {

// Kafka's group states (GroupMetadata.scala).
enum class ClassicGroupState {
  kEmpty,                // no members; may hold committed offsets
  kPreparingRebalance,   // waiting for the members to (re)join
  kCompletingRebalance,  // joined; waiting for the leader's assignment
  kStable,               // every member has its assignment
  kDead,                 // removed from the coordinator; final
};

// Returns Kafka's name of the state ("PreparingRebalance"), as DescribeGroups reports it.
std::string_view group_state_name(ClassicGroupState state);

// The deadlines of a rebalance in progress. Each is set only in the states named.
struct RebalanceDeadlines {
  // PreparingRebalance of a formerly Empty group with an initial delay configured:
  // the join phase does not complete before this.
  std::optional<Clock::TimePoint> initial_delay_end;
  std::int32_t initial_delay_remaining_ms = 0;  // of the rebalance timeout, after this delay
  bool new_member_added = false;                // during the current initial delay
  // PreparingRebalance: members that have not rejoined by then are removed.
  std::optional<Clock::TimePoint> join_deadline;
  // CompletingRebalance/Stable: members that have not sent SyncGroup by then are removed.
  std::optional<Clock::TimePoint> sync_deadline;
  std::set<std::string, std::less<>> pending_sync_members;
};

class ClassicGroup {
 public:
  explicit ClassicGroup(std::string group_id) : group_id_(std::move(group_id)) {}

  [[nodiscard]] const std::string& group_id() const { return group_id_; }
  [[nodiscard]] ClassicGroupState state() const { return state_; }
  [[nodiscard]] std::int32_t generation_id() const { return generation_id_; }
  [[nodiscard]] const std::string& protocol_type() const { return protocol_type_; }
  // The selected assignor; "" until the first generation with members.
  [[nodiscard]] const std::string& protocol_name() const { return protocol_name_; }
  // "" while the group has no members.
  [[nodiscard]] const std::string& leader_id() const { return leader_id_; }
  [[nodiscard]] bool is_leader(std::string_view member_id) const { return member_id == leader_id_; }

  // Moves to `next`. Aborts if Kafka does not allow that transition: callers check
  // the state first, so a bad transition is a bug in the coordinator.
  void transition_to(ClassicGroupState next);

  // Returns the member, or nullptr if `member_id` is not a member.
  GroupMember* find_member(std::string_view member_id);
  [[nodiscard]] const GroupMember* find_member(std::string_view member_id) const;
  [[nodiscard]] const std::map<std::string, GroupMember, std::less<>>& members() const {
    return members_;
  }
  // For callbacks, sessions and flags only: a member's ids, protocols and assignment
  // change through update_protocols() and set_assignment().
  std::map<std::string, GroupMember, std::less<>>& members() { return members_; }

  // Adds `member` (whose id, and instance id if any, must be new) and returns it. The
  // first member becomes the leader, and sets the group's protocol type if the group
  // had no members.
  GroupMember& add_member(GroupMember member);

  // Removes the member if present. If it led the group, the earliest-added
  // remaining member becomes the leader. The caller must have completed its parked
  // calls first.
  void remove_member(std::string_view member_id);

  // Returns the member id bound to the static member's instance id, or nullptr.
  [[nodiscard]] const std::string* static_member_id(std::string_view group_instance_id) const;

  // Kafka's validateCurrentMember: NONE if `member_id` may act as a member. With an
  // instance id: FENCED_INSTANCE_ID if it is bound to another member id,
  // UNKNOWN_MEMBER_ID if it is not bound. Without: UNKNOWN_MEMBER_ID if `member_id` is
  // not a member.
  [[nodiscard]] GroupError check_member(std::string_view member_id,
                                        std::optional<std::string_view> group_instance_id) const;

  // Rebinds a static member (which must exist and have an instance id) to
  // `new_member_id` (which must be new), keeping everything else: assignment, join
  // order, leadership and a pending SyncGroup. Returns the member under its new id.
  // The caller must have completed its parked calls first.
  GroupMember& replace_static_member(std::string_view old_member_id, std::string new_member_id);

  // Kafka's maybeElectNewJoinedLeader, when the join phase ends: if the leader has no
  // JoinGroup parked, the earliest-added member that has one leads instead. Returns
  // false if the group has members and none has a JoinGroup parked.
  bool elect_joined_leader();

  // Replaces the member's protocols (a rejoin with new subscriptions).
  void update_protocols(GroupMember& member, std::vector<GroupProtocol> protocols);

  // Replaces the member's assignment; clear_assignments() empties every member's.
  void set_assignment(GroupMember& member, std::vector<std::uint8_t> assignment);
  void clear_assignments();

  // Members that got MEMBER_ID_REQUIRED and have not joined again yet, with the time
  // their id expires.
  [[nodiscard]] const std::map<std::string, Clock::TimePoint, std::less<>>& pending_members()
      const {
    return pending_members_;
  }
  // Records a pending member id, or moves its expiry if it is pending already.
  void add_pending_member(const std::string& member_id, Clock::TimePoint expiry);
  // Forgets a pending member id; returns whether it was pending.
  bool remove_pending_member(std::string_view member_id);

  // Returns the members plus the pending member ids: what max_group_size bounds.
  [[nodiscard]] std::size_t members_and_pending_count() const {
    return members_.size() + pending_members_.size();
  }

  // Returns whether a member may join with this protocol type and these protocols:
  // a group without other members takes any non-empty type and list; otherwise the
  // type must equal the group's and one protocol must be supported by every other
  // member. `member_id` is the joining member (its old protocols do not count).
  [[nodiscard]] bool supports_protocols(std::string_view protocol_type,
                                        const std::vector<GroupProtocol>& protocols,
                                        std::string_view member_id) const;

  // Returns whether every member has a JoinGroup parked and no id is pending.
  [[nodiscard]] bool all_members_joined() const;

  // Returns the largest rebalance timeout among the members (0 without members).
  [[nodiscard]] std::int32_t rebalance_timeout_ms() const;

  // Sets what a load from __consumer_offsets read (Kafka's GroupMetadata.loadGroup): the
  // generation, its selected protocol and leader, and the state, Stable with members and
  // Empty without. For a group just created, its members added first; a leader that is not
  // a member leaves the earliest-added member leading.
  void load_generation(std::int32_t generation_id, std::string protocol_name,
                       std::string_view leader_id);

  // Starts the next generation: increments the generation id; with members, selects
  // the protocol by vote and moves to CompletingRebalance, otherwise moves to Empty.
  // Requires PreparingRebalance.
  void init_next_generation();

  // Returns every member with its metadata for the selected protocol, in join order
  // (the member list of the leader's JoinGroup result).
  [[nodiscard]] std::vector<JoinedMember> joined_members() const;

  // Returns the protocol supported by every member that most members list first
  // among those; ties go to the earlier one in the leader's order of preference.
  // Requires at least one member and a common protocol.
  [[nodiscard]] std::string select_protocol() const;

  // Records that the member sent SyncGroup for this generation; the sync deadline
  // ends once every member has.
  void mark_synced(std::string_view member_id);

  RebalanceDeadlines& deadlines() { return deadlines_; }
  [[nodiscard]] const RebalanceDeadlines& deadlines() const { return deadlines_; }

  // Returns the earliest of the group's deadlines (rebalance and member expiries),
  // or nullopt if none is set.
  [[nodiscard]] std::optional<Clock::TimePoint> next_deadline() const;

  OffsetStore& offsets() { return offsets_; }
  [[nodiscard]] const OffsetStore& offsets() const { return offsets_; }

  // Returns what max_group_metadata_bytes bounds: every member's protocol names and
  // metadata plus its assignment. O(1).
  [[nodiscard]] std::size_t metadata_bytes() const {
    return protocols_metadata_bytes_ + assignment_bytes_;
  }
  // Returns the part of metadata_bytes() that is assignments.
  [[nodiscard]] std::size_t assignment_bytes() const { return assignment_bytes_; }

  // Returns the bytes the group keeps, as stored_bytes.h counts them. O(1).
  [[nodiscard]] std::size_t stored_bytes() const;
  // Returns stored_bytes() computed afresh from every member, pending id and offset,
  // for tests that check the running count.
  [[nodiscard]] std::size_t recount_stored_bytes() const;

 private:
  std::string group_id_;
  ClassicGroupState state_ = ClassicGroupState::kEmpty;
  std::int32_t generation_id_ = 0;  // incremented by every completed join phase
  std::string protocol_type_;
  std::string protocol_name_;
  std::string leader_id_;
  std::uint64_t next_join_order_ = 0;
  std::map<std::string, GroupMember, std::less<>> members_;
  std::map<std::string, Clock::TimePoint, std::less<>> pending_members_;
  std::map<std::string, std::string, std::less<>> static_members_;  // instance id -> member id
  RebalanceDeadlines deadlines_;
  OffsetStore offsets_;
  std::size_t members_bytes_ = 0;             // sum of member_entry_bytes() over members_
  std::size_t pending_bytes_ = 0;             // sum of pending_member_bytes() over pending ids
  std::size_t protocols_metadata_bytes_ = 0;  // members' protocol names and metadata
  std::size_t assignment_bytes_ = 0;          // members' assignments
};

}  // namespace kgroups::broker
