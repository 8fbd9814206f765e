// SPDX-License-Identifier: Apache-2.0
//
// ClassicRebalance: the classic protocol's rebalance, as Kafka's GroupCoordinator runs it
// (prepareRebalance, completeJoin, removeMemberAndUpdateGroup, the delayed initial join):
// a rebalance starts, the join phase completes when every known member rejoined (or at the
// rebalance timeout, without those that did not), the new generation is formed with its
// leader and protocol, and the members that send no SyncGroup in time are removed. It also
// applies a group's due expiries (sessions, new-member joins, the initial delay, the join
// and sync deadlines). Each step answers the parked calls it settles through the context's
// completion queue and reports to its observer.
// Not thread-safe: used on the coordinator's one thread.
#pragma once

#include <string>

#include "broker/coordinator/classic_group.h"
#include "broker/coordinator/classic_group_context.h"
#include "broker/coordinator/clock.h"

namespace kgroups::broker {

class ClassicRebalance {
 public:
  explicit ClassicRebalance(ClassicGroupContext& context) : context_(context) {}

  // Starts a rebalance (PreparingRebalance): parked SyncGroups get REBALANCE_IN_PROGRESS,
  // and the join phase waits for the members (after the initial delay for an Empty group).
  void prepare(ClassicGroup& group, const std::string& reason);

  // Completes the join phase if the group is preparing one, past its initial delay, and
  // every member has rejoined.
  void maybe_complete_join(ClassicGroup& group);

  // Removes the member (its parked calls get UNKNOWN_MEMBER_ID) and rebalances what is left.
  void remove_member(ClassicGroup& group, GroupMember& member, const std::string& reason);

  // Applies the group's expiries due at `at`, earliest first.
  void fire_due_timers(ClassicGroup& group, Clock::TimePoint at);

 private:
  void complete_join(ClassicGroup& group);
  void expire_pending_syncs(ClassicGroup& group);
  void end_initial_delay(ClassicGroup& group);

  ClassicGroupContext& context_;
};

}  // namespace kgroups::broker
