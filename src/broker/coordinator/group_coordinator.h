// SPDX-License-Identifier: Apache-2.0
//
// GroupCoordinator: Kafka's classic consumer-group coordinator, with the semantics of
// Kafka 3.6's GroupCoordinator (docs/architecture/coordinator.md), as plain logic apart
// from the network. It keeps every group's state machine
// (Empty, PreparingRebalance, CompletingRebalance, Stable, Dead), generations,
// leaders, protocol votes, session and rebalance timeouts, and committed offsets.
//
// Time: every reading comes from the injected Clock. Each call first applies the
// expiries that are due at the clock's current time; between calls nothing happens
// by itself, so the owner must call poll_timers() at or soon after next_deadline()
// (the broker arms a timer to next_deadline() after each call, or ticks every
// 50-100 ms). Tests use ManualClock: advance() then poll_timers().
//
// Bounded work: each call costs O(log groups) plus the work of the group it names
// and of the expiries actually due; groups are found by hash, and a GroupTable
// (group_table.h) keeps them ordered by their next deadline, refreshed for the groups
// each call touched when it ends.
//
// Bounded state: CoordinatorConfig's limits (groups, members per group, id lengths,
// a group's metadata bytes, offset metadata bytes, and the bytes all groups keep
// together) are checked before a call changes anything; a refused call changes
// nothing, except where a method says otherwise.
//
// Parked calls: join_group() and sync_group() finish through their callback, which
// the coordinator invokes exactly once: with the result when the rebalance gets
// there, or with an error when the member is removed, the call is superseded, or the
// coordinator shuts down. Callbacks run after the coordinator's state is consistent,
// before the coordinator call that completed them returns; they may call back into
// the coordinator, and must not throw.
//
// Static members (KIP-345): a member that joins with a group instance id keeps its
// place, its assignment and (if it led) the leadership across a restart: rejoining
// with an empty member id replaces its old member id with a new one, and the old one
// is fenced (FENCED_INSTANCE_ID) on every call. It leaves on LeaveGroup or when its
// session times out, never for missing a rebalance's join phase.
//
// Not thread-safe: the broker calls it from one strand (thread) only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "broker/coordinator/call_scope.h"
#include "broker/coordinator/classic_group.h"
#include "broker/coordinator/classic_group_context.h"
#include "broker/coordinator/classic_rebalance.h"
#include "broker/coordinator/classic_static_membership.h"
#include "broker/coordinator/clock.h"
#include "broker/coordinator/coordinator_config.h"
#include "broker/coordinator/group_error.h"
#include "broker/coordinator/group_observer.h"
#include "broker/coordinator/group_summary.h"
#include "broker/coordinator/group_table.h"
#include "broker/coordinator/join_group.h"
#include "broker/coordinator/offset_commit.h"
#include "broker/coordinator/offset_store.h"
#include "broker/coordinator/sync_group.h"

namespace kgroups::broker {

// One member a LeaveGroup removes (v3+ batches several). A member id of "" with an
// instance id names the static member bound to that instance id.
struct LeavingMember {
  std::string member_id;
  std::optional<std::string> group_instance_id;
};

struct LeaveGroupResult {
  GroupError error = GroupError::kNone;   // for the whole request
  std::vector<GroupError> member_errors;  // one per leaving member, in request order
};

// A classic group as a load reads it back from __consumer_offsets (its GroupMetadata
// record): the generation, protocol type, selected protocol and leader ("" for an Empty
// group), and the members with their ids, timeouts, assignment and their metadata for the
// selected protocol as their one protocol.
struct LoadedClassicGroup {
  std::string group_id;
  std::int32_t generation_id = 0;
  std::string protocol_type;
  std::string protocol_name;
  std::string leader_id;
  std::vector<GroupMember> members;
};

class GroupCoordinator {
 public:
  // Receives one human-readable line per decision a timeout or a slow client made
  // (members expired, rebalances completed without someone) and per rebalance.
  using Logger = ClassicGroupContext::Logger;

  // `clock` must outlive the coordinator.
  GroupCoordinator(CoordinatorConfig config, const Clock& clock, Logger logger = {});
  // Completes every parked call with NOT_COORDINATOR, like shutdown().
  ~GroupCoordinator();

  GroupCoordinator(const GroupCoordinator&) = delete;
  GroupCoordinator& operator=(const GroupCoordinator&) = delete;

  // JoinGroup. Errors, through `done` at once: INVALID_GROUP_ID (empty or longer than
  // max_id_length), UNKNOWN_MEMBER_ID (the given member id is not in the group, or is
  // too long), INVALID_REQUEST (client id or protocol type longer than
  // max_id_length), INVALID_SESSION_TIMEOUT (outside the configured bounds),
  // INCONSISTENT_GROUP_PROTOCOL (empty or foreign protocol type, or no assignor in
  // common with the other members), POLICY_VIOLATION (a new group beyond max_groups),
  // GROUP_MAX_SIZE_REACHED (a new member of a group with max_group_size members and
  // pending ids, or protocols that would take the group past
  // max_group_metadata_bytes), COORDINATOR_LOAD_IN_PROGRESS (past max_stored_bytes),
  // MEMBER_ID_REQUIRED (require_known_member_id, an empty member id and no instance
  // id). With an instance id: INVALID_REQUEST (longer than max_id_length),
  // FENCED_INSTANCE_ID (a member id that is not the one bound to the instance id),
  // UNKNOWN_MEMBER_ID (a member id with an instance id the group does not know).
  // Otherwise the call parks until the join phase completes, as soon as every member
  // has rejoined or when the rebalance timeout drops the dynamic members that did not
  // (static ones stay). A follower rejoining a Stable group with unchanged protocols
  // gets the current generation at once.
  //
  // A known instance id with an empty member id replaces the member: it gets a new
  // member id and keeps its assignment, and the old id's parked calls end with
  // FENCED_INSTANCE_ID. In a Stable group whose selected protocol the new protocols
  // leave unchanged, it gets the current generation at once, without a rebalance:
  // the result names the leader as it was before the replacement (so a replaced
  // leader does not assign), or, with supports_skip_assignment, the current leader
  // with the member list and skip_assignment set. Otherwise (CompletingRebalance, or
  // a change of selected protocol) the group rebalances; in PreparingRebalance the
  // join parks like any other.
  void join_group(JoinGroupParams params, JoinGroupCallback done);

  // SyncGroup. Errors, through `done` at once: INVALID_GROUP_ID, UNKNOWN_MEMBER_ID,
  // FENCED_INSTANCE_ID (the instance id is bound to another member id), ILLEGAL_GENERATION,
  // INCONSISTENT_GROUP_PROTOCOL (v5 type/name mismatch), REBALANCE_IN_PROGRESS (the group is
  // joining), COORDINATOR_NOT_AVAILABLE (the leader's assignments would take stored_bytes() past
  // max_stored_bytes; nothing changes and the followers stay parked). In CompletingRebalance a
  // follower parks until the leader's SyncGroup stores the assignments; in Stable each member gets
  // its assignment at once. If the leader's assignments would take the group past
  // max_group_metadata_bytes, nothing is stored, every parked SyncGroup (the
  // leader's too) gets GROUP_MAX_SIZE_REACHED and the group prepares a rebalance.
  void sync_group(SyncGroupParams params, SyncGroupCallback done);

  // Heartbeat: refreshes the member's session. `group_instance_id` is Heartbeat v3+'s,
  // set by a static member. Returns NONE, INVALID_GROUP_ID, UNKNOWN_MEMBER_ID,
  // FENCED_INSTANCE_ID (the instance id is bound to another member id),
  // ILLEGAL_GENERATION, or REBALANCE_IN_PROGRESS while the group is preparing a
  // rebalance (the session is refreshed then too).
  GroupError heartbeat(std::string_view group_id, std::int32_t generation_id,
                       std::string_view member_id,
                       std::optional<std::string_view> group_instance_id);

  // LeaveGroup: removes each member and rebalances the group once, at once. Per
  // member, in member_errors: UNKNOWN_MEMBER_ID (not in the group, or an instance id
  // the group does not know), FENCED_INSTANCE_ID (the instance id is bound to another
  // member id); a member id of "" leaves by instance id. An empty or too long group
  // id gets INVALID_GROUP_ID for the whole request.
  LeaveGroupResult leave_group(std::string_view group_id,
                               const std::vector<LeavingMember>& members);

  // OffsetCommit. Errors for the whole request, on which nothing is stored:
  // INVALID_GROUP_ID (group id longer than max_id_length); the fencing Kafka does,
  // UNKNOWN_MEMBER_ID (not a member, a too long member id, or an empty member id
  // while the group has members), FENCED_INSTANCE_ID (the instance id is bound to
  // another member id), ILLEGAL_GENERATION (not the group's generation, or
  // generation >= 0 for a group that does not exist), REBALANCE_IN_PROGRESS
  // (CompletingRebalance); then POLICY_VIOLATION (would create a group beyond
  // max_groups), COORDINATOR_LOAD_IN_PROGRESS (past max_stored_bytes). Otherwise
  // each partition whose metadata is longer than offset_metadata_max_bytes gets
  // OFFSET_METADATA_TOO_LARGE and the others are stored. Generation -1 with an empty
  // member id commits to a group without members, creating it if needed.
  OffsetCommitResult commit_offsets(const OffsetCommitParams& params);

  // OffsetFetch: the committed offset of each partition ({-1, ""} where none), or of
  // every committed partition when `partitions` is nullopt. Answered in any state,
  // for any group, without a membership check; a group id longer than max_id_length
  // names no group.
  std::vector<PartitionOffset> fetch_offsets(
      std::string_view group_id, const std::optional<std::vector<TopicPartition>>& partitions);

  // DescribeGroups for one group; a group that does not exist is reported Dead, a
  // group id longer than max_id_length gets INVALID_GROUP_ID (state "", as Kafka).
  GroupSummary describe_group(std::string_view group_id);

  // ListGroups: every group the coordinator holds, ordered by group id.
  std::vector<GroupListing> list_groups();

  // The group as it stands, for reading (the control endpoint's inspection), or nullptr.
  // Valid until the next call that changes the coordinator. Applies no expiry.
  [[nodiscard]] const ClassicGroup* group(std::string_view group_id) const {
    return groups_.find(group_id);
  }

  // Returns whether the coordinator holds a group of that id (with members or offsets).
  [[nodiscard]] bool has_group(std::string_view group_id) const;

  // Hands an empty group over to the consumer-group protocol, as Kafka deletes an empty
  // classic group when a consumer-protocol member joins it: returns nullopt (and changes
  // nothing) if the group has members or is rebalancing; otherwise forgets the group and
  // returns its committed offsets (none for a group that does not exist).
  std::optional<std::vector<PartitionOffset>> release_empty_group(std::string_view group_id);

  // Deletion (group_coordinator_delete.cc), as Kafka's DeleteGroups, OffsetDelete and
  // onPartitionsDeleted.
  // DeleteGroups for one group: forgets a group without members, with its offsets. Returns
  // NONE, INVALID_GROUP_ID (empty or longer than max_id_length), GROUP_ID_NOT_FOUND (no such
  // group), NON_EMPTY_GROUP (it has members or pending members, or is rebalancing).
  GroupError delete_group(std::string_view group_id);

  // OffsetDelete: forgets the group's committed offsets of `partitions`. Errors for the whole
  // request: INVALID_GROUP_ID, GROUP_ID_NOT_FOUND, NON_EMPTY_GROUP (members of a protocol type
  // other than "consumer", whose subscriptions cannot be read). With members, a partition of
  // a topic some member's consumer-protocol subscription names (or every partition, if one
  // cannot be read) gets GROUP_SUBSCRIBED_TO_TOPIC and is kept. A group left with neither
  // members nor offsets is forgotten.
  OffsetDeleteResult delete_offsets(std::string_view group_id,
                                    const std::vector<TopicPartition>& partitions);

  // Forgets every group's committed offsets of `topic` (just deleted).
  void delete_topic_offsets(std::string_view topic);

  // Applies every expiry due at the clock's current time.
  void poll_timers();

  // Returns the earliest time at which poll_timers() has work, or nullopt if none.
  // O(1).
  [[nodiscard]] std::optional<Clock::TimePoint> next_deadline() const;

  // Returns the bytes all groups keep (stored_bytes.h), the total max_stored_bytes
  // bounds. Kept up to date call by call; 0 without groups.
  [[nodiscard]] std::size_t stored_bytes() const { return groups_.stored_bytes(); }
  // Changes max_stored_bytes (0: no bound), e.g. to what another coordinator leaves of a
  // shared budget; what is stored already stays.
  void set_max_stored_bytes(std::size_t bytes) { context_.config.max_stored_bytes = bytes; }

  // Returns stored_bytes() recomputed by visiting every group, member and offset:
  // O(everything), for tests that check the running total.
  [[nodiscard]] std::size_t recount_stored_bytes() const;

  // Loading and unloading a partition of __consumer_offsets, as Kafka's coordinator does
  // when it gains or loses the partition's leadership (group_coordinator_load.cc).
  // unload_group(): completes the group's parked calls with NOT_COORDINATOR and forgets it,
  // members, offsets and all, telling no observer (the group moves; it does not end).
  // Returns whether there was such a group.
  bool unload_group(std::string_view group_id);
  // load_group(): creates `loaded`, Stable with its members, each with a fresh session, or
  // Empty without. Returns NONE, INVALID_GROUP_ID (empty, too long, or held already: unload
  // first), POLICY_VIOLATION (max_groups), GROUP_MAX_SIZE_REACHED (max_group_size or
  // max_group_metadata_bytes) or COORDINATOR_LOAD_IN_PROGRESS (max_stored_bytes); a refused
  // load creates nothing.
  GroupError load_group(LoadedClassicGroup loaded);

  // Completes every parked call with NOT_COORDINATOR and forgets every group.
  void shutdown();

  // Tells `observer` (nullptr: no one) what happens to the groups from now on
  // (group_observer.h). It must outlive the coordinator, or be replaced first.
  void set_observer(GroupObserver* observer) { context_.observer = observer; }

 private:
  friend class CallScope<GroupCoordinator>;
  // CallScope's ends (group_coordinator.cc): due expiries first; on exit the touched groups
  // settled, then the queued completions run.
  void begin_call();
  void end_call();
  // Forgets the group if it is Empty with neither members nor offsets.
  void erase_group_if_unused(std::string_view group_id);
  // Limits (group_coordinator_limits.cc). The admit_ functions return NONE or the
  // error of a call that must change nothing.
  [[nodiscard]] bool valid_group_id(std::string_view group_id) const;
  [[nodiscard]] bool within_id_length(std::string_view id) const;
  [[nodiscard]] bool exceeds_stored_bytes(std::size_t growth_bytes) const;
  [[nodiscard]] GroupError admit_new_group() const;
  [[nodiscard]] GroupError admit_new_member(const ClassicGroup* group, std::string_view group_id,
                                            const GroupMember& member, bool pending) const;
  [[nodiscard]] GroupError admit_pending_member(const ClassicGroup& group,
                                                const GroupMember& member) const;
  [[nodiscard]] GroupError admit_protocols(const ClassicGroup& group, const GroupMember& member,
                                           const std::vector<GroupProtocol>& protocols) const;
  [[nodiscard]] GroupError admit_static_replacement(
      const ClassicGroup& group, const GroupMember& member, std::string_view new_member_id,
      const std::vector<GroupProtocol>& protocols) const;

  // Join phase (group_coordinator_join.cc).
  // `group` is nullptr when the join would create it.
  void join_new_member(ClassicGroup* group, JoinGroupParams& params, JoinGroupCallback& done);
  void join_known_member(ClassicGroup& group, JoinGroupParams& params, JoinGroupCallback& done);
  // Returns the member `params` describes, moving its strings and protocols out.
  GroupMember member_from(JoinGroupParams& params, std::string member_id) const;
  void add_member_and_rebalance(ClassicGroup& group, GroupMember member, JoinGroupCallback& done);
  void update_member_and_rebalance(ClassicGroup& group, GroupMember& member,
                                   JoinGroupParams& params, JoinGroupCallback& done);
  // A static member's join with an empty member id: admitted here, replaced by
  // static_membership_. `group` is nullptr when the join would create it.
  void join_new_static_member(ClassicGroup* group, JoinGroupParams& params,
                              JoinGroupCallback& done);

  // The leader's SyncGroup (group_coordinator_sync.cc): every member gets its assignment,
  // or the rebalance fails with `error`.
  void propagate_assignment(ClassicGroup& group);
  void fail_assignment(ClassicGroup& group, GroupError error, const std::string& reason);
  // Applies every group's due expiries (ClassicRebalance::fire_due_timers).
  void fire_all_due_timers();

  ClassicGroupContext context_;
  ClassicRebalance rebalance_{context_};
  StaticMembership static_membership_{context_, rebalance_};
  GroupTable<ClassicGroup> groups_;
};

}  // namespace kgroups::broker
