// SPDX-License-Identifier: Apache-2.0
//
// GroupObserver: what the group coordinators (GroupCoordinator, ConsumerGroupCoordinator,
// ShareGroupCoordinator) tell whoever watches their groups — members joining, leaving and
// expiring, rebalances starting and completing with their assignment, offsets committed,
// groups deleted or forgotten, and a share group's records released for redelivery. The
// coordinators call it at the moment each thing happens, in the order it happens, and stay
// plain logic: the broker's EventRecorder (broker/events/) turns observations into events,
// its ReplayTracker follows assignments.
// Every method is a no-op by default, so an observer overrides only what it wants.
//
// Lifetimes: every view (string_view, span, reference) an observation carries is valid only
// during the call; an observer copies what it keeps. An observer must not call back into the
// coordinator that observes to it, and must not throw.
// Not thread-safe: called on the coordinators' thread.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "broker/coordinator/consumer_protocol.h"
#include "broker/coordinator/offset_store.h"

namespace kgroups::broker {

// Which protocol a group speaks: classic (JoinGroup/SyncGroup), consumer (KIP-848) or share
// (KIP-932). A share group reports members joining, leaving and expiring and its records
// released (on_records_released), never rebalances, offsets or deletions.
enum class GroupType { kClassic, kConsumer, kShare };

// "classic", "consumer" or "share", as ListGroups' types and the HTTP API name them.
constexpr std::string_view group_type_name(GroupType type) {
  switch (type) {
    case GroupType::kClassic:
      return "classic";
    case GroupType::kConsumer:
      return "consumer";
    case GroupType::kShare:
      return "share";
  }
  return "classic";
}

struct ObservedMember {
  std::string_view member_id;
  std::string_view client_id;
  std::string_view client_host;                 // Kafka's form, "/127.0.0.1"
  std::optional<std::string_view> instance_id;  // a static member's group instance id
};

// One member's share of a completed rebalance.
struct ObservedAssignment {
  std::string_view member_id;
  // The member's partitions by topic; nullopt when they cannot be known (a classic group whose
  // protocol type is not "consumer", or assignment bytes that are not the consumer protocol's).
  std::optional<std::vector<AssignedTopicPartitions>> partitions;
};

struct ObservedRebalance {
  GroupType type = GroupType::kClassic;
  std::string_view group_id;
  // The generation the rebalance produced (consumer groups: the group epoch of the target
  // assignment).
  std::int32_t generation = 0;
  std::string_view protocol;   // classic: the selected assignor; consumer: the server assignor
  std::string_view leader_id;  // classic: the leader; consumer groups have none ("")
  std::vector<ObservedAssignment> assignment;  // every member, in member id order
};

// Records of one share-partition that went back to be delivered again (or were archived at
// the delivery-count limit) without their member acknowledging them.
struct ObservedReleasedPartition {
  std::string_view topic;  // "" when the topic is no longer known
  std::int32_t partition = 0;
  std::int64_t released = 0;  // available again: the next acquisition redelivers them
  std::int64_t archived = 0;  // at the delivery-count limit: never delivered again
};

// A share group's records released for redelivery, in one go.
struct ObservedRelease {
  std::string_view group_id;
  // The member that held them, or "" for expired locks (which may be of several members).
  std::string_view member_id;
  // Why: "lock_expired" (a lock ran out), "member_left", "member_expired" (its session timed
  // out) or "session_closed" (its share session ended).
  std::string_view reason;
  std::vector<ObservedReleasedPartition> partitions;  // those with records released, in order
};

// What changed of a consumer-group (KIP-848) member that stays in its group.
enum class MemberUpdate : std::uint8_t {
  kDetails,     // what it says of itself: ids, rack, subscription, assignor, rebalance timeout
  kAssignment,  // where it stands: its epochs, reconciliation state and partitions
};

class GroupObserver {
 public:
  virtual ~GroupObserver() = default;

  // A member entered the group (a static member replacing its old member id is the old id
  // leaving and the new one joining).
  virtual void on_member_joined(GroupType /*type*/, std::string_view /*group_id*/,
                                const ObservedMember& /*member*/) {}
  // A member left on its own request; `reason` says how, in words.
  virtual void on_member_left(GroupType /*type*/, std::string_view /*group_id*/,
                              const ObservedMember& /*member*/, std::string_view /*reason*/) {}
  // The coordinator removed a member for missing a deadline (session, rebalance or sync
  // timeout); `reason` names it.
  virtual void on_member_expired(GroupType /*type*/, std::string_view /*group_id*/,
                                 const ObservedMember& /*member*/, std::string_view /*reason*/) {}
  // A consumer group's member changed without joining or leaving (a member that joins is
  // reported by on_member_joined, and then by this when its first reconciliation moves it).
  virtual void on_member_updated(GroupType /*type*/, std::string_view /*group_id*/,
                                 std::string_view /*member_id*/, MemberUpdate /*update*/) {}
  // The group starts a rebalance, leaving `generation` (consumer groups: the group epoch
  // before the bump); `reason` says what caused it.
  virtual void on_rebalance_started(GroupType /*type*/, std::string_view /*group_id*/,
                                    std::int32_t /*generation*/, std::string_view /*reason*/) {}
  // The group has a new generation with its assignment: a classic group when its leader's
  // assignment is stored (or when the join phase ends without members), a consumer group when
  // its target assignment is computed.
  virtual void on_rebalance_completed(const ObservedRebalance& /*rebalance*/) {}
  // `offsets` were stored for the group (only those stored: a partition refused for its
  // metadata size is not among them); `member_id` is "" for a commit from outside the group.
  virtual void on_offsets_committed(GroupType /*type*/, std::string_view /*group_id*/,
                                    std::string_view /*member_id*/,
                                    std::span<const PartitionOffset> /*offsets*/) {}
  // DeleteGroups deleted the group.
  virtual void on_group_deleted(GroupType /*type*/, std::string_view /*group_id*/) {}
  // The coordinator dropped a group that has neither members nor committed offsets (it keeps
  // no state for it; a later join creates it anew). May follow on_group_deleted.
  virtual void on_group_forgotten(GroupType /*type*/, std::string_view /*group_id*/) {}
  // A share group's records went back without being acknowledged (never called with no
  // records).
  virtual void on_records_released(const ObservedRelease& /*release*/) {}
};

}  // namespace kgroups::broker
