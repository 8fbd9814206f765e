// SPDX-License-Identifier: Apache-2.0
//
// ConsumerGroupCoordinator: the server side of Kafka's consumer-group protocol
// (KIP-848: ConsumerGroupHeartbeat, API 68; ConsumerGroupDescribe, API 69) as plain
// logic apart from the network, beside the classic GroupCoordinator. The coordinator
// computes each group's target assignment with a server-side assignor (`uniform` or
// `range`) and moves every member towards it by heartbeats, revoking before it
// assigns, so no partition ever belongs to two members at once. It also stores the
// groups' committed offsets, fenced by member epoch.
//
// Time: as GroupCoordinator. Every call first applies the expiries due at the
// clock's current time (session timeouts remove members; rebalance timeouts remove
// members that did not revoke in time); the owner calls poll_timers() at or soon
// after next_deadline().
//
// Bounded work: each call costs O(log groups) plus the work of the group it names
// (a heartbeat that changes the group epoch computes the group's target assignment,
// O(members x subscribed partitions); one that moves its member a reconciliation step,
// O(that member's partitions x log); one of a member reconciled to the target that
// changes nothing, O(log members) plus its request's size) and of the expiries due.
//
// Bounded state: ConsumerGroupConfig's limits (groups, members per group, id
// lengths, subscribed topics, offset metadata) are checked before a call changes
// anything; a refused call changes nothing. A group without members and offsets is
// forgotten (Kafka keeps it, Empty, until its offsets expire): a member of a
// forgotten group is answered as one of an empty group, UNKNOWN_MEMBER_ID.
//
// Group ids: this coordinator holds only consumer groups; the broker decides which
// coordinator a group id belongs to (has_group() here and in GroupCoordinator).
//
// Not thread-safe: the broker calls it from one strand only. `clock` and `catalog`
// must outlive it.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "broker/coordinator/call_scope.h"
#include "broker/coordinator/clock.h"
#include "broker/coordinator/consumer_group.h"
#include "broker/coordinator/consumer_group_config.h"
#include "broker/coordinator/consumer_group_description.h"
#include "broker/coordinator/consumer_group_heartbeat.h"
#include "broker/coordinator/group_coordinator.h"
#include "broker/coordinator/group_observer.h"
#include "broker/coordinator/group_summary.h"
#include "broker/coordinator/group_table.h"
#include "broker/coordinator/topic_catalog.h"

namespace kgroups::broker {

// A consumer group as a load reads it back from __consumer_offsets: its epoch
// (ConsumerGroupMetadata), its target assignment's epoch and members' targets
// (ConsumerGroupTargetAssignment*), and each member's details (ConsumerGroupMemberMetadata)
// with its epochs, state and partitions (ConsumerGroupCurrentMemberAssignment).
struct LoadedConsumerGroup {
  std::string group_id;
  std::int32_t group_epoch = 0;
  std::int32_t assignment_epoch = 0;
  std::vector<ConsumerGroupMember> members;
  std::map<std::string, ConsumerAssignment, std::less<>> target;  // by member id
};

class ConsumerGroupCoordinator {
 public:
  // Receives one human-readable line per membership change, epoch bump and expiry.
  using Logger = std::function<void(std::string_view line)>;

  ConsumerGroupCoordinator(ConsumerGroupConfig config, const Clock& clock,
                           const TopicCatalog& catalog, Logger logger = {});

  ConsumerGroupCoordinator(const ConsumerGroupCoordinator&) = delete;
  ConsumerGroupCoordinator& operator=(const ConsumerGroupCoordinator&) = delete;

  // The bytes every group's members (consumer_member_bytes) and committed offsets
  // (OffsetStore::stored_bytes) keep, the total that ConsumerGroupConfig::max_stored_bytes
  // bounds.
  [[nodiscard]] std::size_t stored_bytes() const { return groups_.stored_bytes(); }
  // Changes max_stored_bytes (0: no bound), e.g. to what the classic coordinator leaves of
  // a shared budget; members already stored stay.
  void set_max_stored_bytes(std::size_t bytes) { config_.max_stored_bytes = bytes; }

  // ConsumerGroupHeartbeat. Errors (nothing changes): INVALID_REQUEST (empty group,
  // instance or rack id; a regex subscription; member epoch 0 without rebalance
  // timeout, without subscribed topics, or with owned partitions; an empty member id
  // with epoch > 0 or < 0; epoch below -2; an over-long field), INVALID_GROUP_ID (group
  // id longer than max_id_length), UNSUPPORTED_ASSIGNOR, UNKNOWN_MEMBER_ID (not a
  // member, or an unknown instance id), FENCED_MEMBER_EPOCH (epoch ahead of the
  // member's, or behind it other than the previous epoch with owned partitions that are
  // a subset of the assigned ones), FENCED_INSTANCE_ID (another member holds the
  // instance id), UNRELEASED_INSTANCE_ID (a static member joins while the holder of its
  // instance id has not left with epoch -2), GROUP_MAX_SIZE_REACHED, POLICY_VIOLATION
  // (a new group beyond max_groups).
  // Epoch 0 joins (a known member id rejoins from scratch, its partitions released);
  // -1 leaves; -2 leaves a static member's place (and assignment) held until its
  // session times out, so a member with the same instance id takes it over at once.
  ConsumerGroupHeartbeatResult heartbeat(const ConsumerGroupHeartbeatParams& params);

  // ConsumerGroupDescribe for one group.
  ConsumerGroupDescription describe_group(std::string_view group_id);

  // ListGroups: every consumer group, ordered by id, with protocol_type "consumer".
  std::vector<GroupListing> list_groups();

  // Returns whether the coordinator holds a consumer group of that id.
  [[nodiscard]] bool has_group(std::string_view group_id) const;

  // The group as it stands, for reading (its records in __consumer_offsets), or nullptr.
  // Valid until the next call that changes the coordinator. Applies no expiry.
  [[nodiscard]] const ConsumerGroup* group(std::string_view group_id) const {
    return groups_.find(group_id);
  }

  // OffsetCommit (v9+ semantics; generation_id is the member epoch). Errors for the
  // whole request, on which nothing is stored: INVALID_GROUP_ID, UNKNOWN_MEMBER_ID (not
  // a member, or a group without members given a member epoch >= 0),
  // STALE_MEMBER_EPOCH (not the member's current epoch), POLICY_VIOLATION (would
  // create a group beyond max_groups). Epoch < 0 commits to a group without members
  // (creating it if needed), as Kafka's admin commits. Otherwise as GroupCoordinator:
  // over-long metadata gets OFFSET_METADATA_TOO_LARGE for its partition only.
  OffsetCommitResult commit_offsets(const OffsetCommitParams& params);

  // OffsetFetch in any group state; see ConsumerOffsetFetchParams.
  ConsumerOffsetFetchResult fetch_offsets(const ConsumerOffsetFetchParams& params);

  // Deletion (consumer_group_delete.cc), as GroupCoordinator's: delete_group() refuses a
  // group with members (NON_EMPTY_GROUP); delete_offsets() keeps (GROUP_SUBSCRIBED_TO_TOPIC)
  // the partitions of a topic some member subscribes to by name. Both release the memory
  // counted for what they delete.
  GroupError delete_group(std::string_view group_id);
  OffsetDeleteResult delete_offsets(std::string_view group_id,
                                    const std::vector<TopicPartition>& partitions);
  void delete_topic_offsets(std::string_view topic);

  // Applies every expiry due at the clock's current time.
  void poll_timers();

  // Returns the earliest time at which poll_timers() has work, or nullopt. O(1).
  [[nodiscard]] std::optional<Clock::TimePoint> next_deadline() const;

  // Loading and unloading a partition of __consumer_offsets (consumer_group_load.cc), as
  // GroupCoordinator's. unload_group(): forgets the group, members, offsets and all, telling
  // no observer; whether there was one. load_group(): creates `loaded`, every member with a
  // fresh session (and, while it revokes, a fresh rebalance timeout), the subscription
  // metadata read from the catalog. Returns NONE, INVALID_GROUP_ID (empty, too long, or
  // held already), POLICY_VIOLATION (max_groups), GROUP_MAX_SIZE_REACHED or
  // COORDINATOR_LOAD_IN_PROGRESS (max_stored_bytes); a refused load creates nothing.
  bool unload_group(std::string_view group_id);
  GroupError load_group(LoadedConsumerGroup loaded);

  // Forgets every group.
  void shutdown();

  // Tells `observer` (nullptr: no one) what happens to the groups from now on
  // (group_observer.h). It must outlive the coordinator, or be replaced first.
  void set_observer(GroupObserver* observer) { observer_ = observer; }

 private:
  friend class CallScope<ConsumerGroupCoordinator>;
  // CallScope's ends (consumer_group_coordinator.cc): due expiries first; on exit the
  // touched groups settled, those with neither members nor offsets forgotten.
  void begin_call();
  void end_call();
  // Creates the group (which must not exist), touched.
  ConsumerGroup& create_group(std::string_view group_id);
  // Whether storing `member` in `group` (nullptr: a new group), in place of the member
  // `replaced_id` (nullopt: none), would take stored_bytes() past max_stored_bytes.
  [[nodiscard]] bool exceeds_stored_bytes(const ConsumerGroup* group,
                                          std::optional<std::string> replaced_id,
                                          const ConsumerGroupMember& member) const;
  void settle_touched_groups();
  void fire_due_timers();
  std::string new_member_id();
  void log(const std::string& line) const;
  [[nodiscard]] Clock::TimePoint now() const { return clock_.now(); }

  // Heartbeat (consumer_group_heartbeat.cc).
  [[nodiscard]] std::optional<ConsumerGroupHeartbeatResult> refuse(
      const ConsumerGroupHeartbeatParams& params) const;
  ConsumerGroupHeartbeatResult join_or_heartbeat(const ConsumerGroupHeartbeatParams& params);
  ConsumerGroupHeartbeatResult leave(const ConsumerGroupHeartbeatParams& params);

  // Membership and assignment (consumer_group_membership.cc).
  // Why a member is removed: it left (epoch -1), or missed a deadline.
  enum class Removal { kLeft, kExpired };
  // Removes the member, bumps the group epoch; `reason` completes "member X removed because".
  void fence_member(ConsumerGroup& group, const std::string& member_id, Removal removal,
                    const std::string& reason);
  // Bumps the group epoch if `subscription_changed` or the subscribed topics' metadata
  // changed, then recomputes the target assignment if it is older than the epoch. The
  // heartbeat of `member_id` (just added to the group when `member_added`) caused the call.
  void update_group_epoch_and_target(ConsumerGroup& group, bool subscription_changed,
                                     std::string_view member_id, bool member_added);
  void compute_target_assignment(ConsumerGroup& group);
  // Moves the member one reconciliation step; arms or clears its rebalance timer. Returns
  // whether its assigned partitions changed. O(1) for a member reconciled to the target.
  bool reconcile(ConsumerGroup& group, const std::string& member_id,
                 const std::optional<std::vector<TopicPartitions>>& owned);
  [[nodiscard]] std::vector<NamedTopicPartitions> named(const ConsumerAssignment& partitions) const;

  // Observations (consumer_group_observe.cc).
  [[nodiscard]] static ObservedMember observed(const ConsumerGroupMember& member);
  // Tells the observer the group's new target assignment, computed by `assignor`.
  void observe_target_assignment(const ConsumerGroup& group, std::string_view assignor) const;

  ConsumerGroupConfig config_;
  const Clock& clock_;
  const TopicCatalog& catalog_;
  Logger logger_;
  GroupTable<ConsumerGroup> groups_;  // every group with members or offsets
  std::mt19937_64 member_id_random_;
  GroupObserver* observer_ = nullptr;  // not owned; nullptr: nobody observes
};

}  // namespace kgroups::broker
