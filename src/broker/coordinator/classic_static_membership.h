// SPDX-License-Identifier: Apache-2.0
//
// StaticMembership: KIP-345's static members of a classic group, as Kafka's GroupCoordinator
// handles a JoinGroup with a group instance id and no member id. The instance's member is
// replaced by one with a new member id that keeps its place, its assignment and (if it led)
// the leadership; the old instance's parked calls end with FENCED_INSTANCE_ID, and every
// call it makes with its old id is fenced from then on. A Stable group answers at once with
// the current generation when the member's protocols keep the group's choice; otherwise
// the group rebalances.
// Not thread-safe: used on the coordinator's one thread.
#pragma once

#include <string>

#include "broker/coordinator/classic_group.h"
#include "broker/coordinator/classic_group_context.h"
#include "broker/coordinator/classic_rebalance.h"
#include "broker/coordinator/join_group.h"

namespace kgroups::broker {

class StaticMembership {
 public:
  StaticMembership(ClassicGroupContext& context, ClassicRebalance& rebalance)
      : context_(context), rebalance_(rebalance) {}

  // Replaces `old_member_id` (bound to params.group_instance_id) with `member_id`, a call the
  // coordinator has admitted (protocols supported, limits kept); `done` is answered now or
  // when the rebalance it starts gets there.
  void replace(ClassicGroup& group, const std::string& old_member_id, std::string member_id,
               JoinGroupParams& params, JoinGroupCallback& done);

 private:
  ClassicGroupContext& context_;
  ClassicRebalance& rebalance_;
};

}  // namespace kgroups::broker
