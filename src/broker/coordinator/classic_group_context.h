// SPDX-License-Identifier: Apache-2.0
//
// ClassicGroupContext: what the classic coordinator's parts (GroupCoordinator, its
// ClassicRebalance and StaticMembership) work with beside the groups themselves: the
// config and clock, the log, the queue of answers to parked JoinGroup and SyncGroup calls,
// the observer, and the source of member ids. The coordinator owns it; the parts hold a
// reference.
// Not thread-safe: used on the coordinator's one thread.
#pragma once

#include <functional>
#include <random>
#include <string>
#include <string_view>

#include "broker/coordinator/classic_group.h"
#include "broker/coordinator/clock.h"
#include "broker/coordinator/completion_queue.h"
#include "broker/coordinator/coordinator_config.h"
#include "broker/coordinator/group_observer.h"
#include "broker/coordinator/join_group.h"
#include "broker/coordinator/sync_group.h"

namespace kgroups::broker {

class ClassicGroupContext {
 public:
  using Logger = std::function<void(std::string_view line)>;

  ClassicGroupContext(CoordinatorConfig config, const Clock& clock, Logger logger);

  CoordinatorConfig config;
  CompletionQueue completions;        // answers to parked calls, run when each call ends
  GroupObserver* observer = nullptr;  // not owned; nullptr: nobody observes

  [[nodiscard]] Clock::TimePoint now() const { return clock_.now(); }
  void log(const std::string& line) const;
  // "group \"<id>\": ", the start of a log line about the group.
  [[nodiscard]] static std::string label(const ClassicGroup& group);

  // Queues the answer to the member's parked JoinGroup (SyncGroup) call, if it has one.
  void complete_join_call(GroupMember& member, JoinGroupResult result);
  void complete_sync_call(GroupMember& member, SyncGroupResult result);
  // Queues `error` as the answer to a call that never parked.
  void fail_join_call(JoinGroupCallback& done, GroupError error, std::string member_id);
  void fail_sync_call(SyncGroupCallback& done, GroupError error);

  // Moves the member's session deadline to now + its session timeout.
  void refresh_session(GroupMember& member) const;
  // Returns "<prefix>-<UUID>", the prefix (client id, or a static member's instance id) cut
  // to fit config.max_id_length.
  std::string new_member_id(std::string_view prefix);

  // Observations; each does nothing without an observer.
  void observe_member_joined(const ClassicGroup& group, const GroupMember& member) const;
  void observe_member_left(const ClassicGroup& group, const GroupMember& member,
                           std::string_view reason) const;
  void observe_member_expired(const ClassicGroup& group, const GroupMember& member,
                              std::string_view reason) const;
  // The generation the group has now, with every member's assignment.
  void observe_rebalance_completed(const ClassicGroup& group) const;

 private:
  const Clock& clock_;
  Logger logger_;
  std::mt19937_64 member_id_random_;
};

// The JoinGroup answer for `member` in the group's current generation (with every joined
// member when it leads).
JoinGroupResult current_generation_result(const ClassicGroup& group, const GroupMember& member);

}  // namespace kgroups::broker
