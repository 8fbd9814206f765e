// SPDX-License-Identifier: Apache-2.0
//
// CoordinatorConfig: the group coordinator's tunables, with Kafka's broker defaults
// except the initial rebalance delay, which is 0 so rebalances are fast and
// deterministic unless a user asks for Kafka's behaviour.
#pragma once

#include <cstdint>

namespace kgroups::broker {

struct CoordinatorConfig {
  // JoinGroup with a session timeout outside [min, max] gets INVALID_SESSION_TIMEOUT.
  std::int32_t min_session_timeout_ms = 6000;     // group.min.session.timeout.ms
  std::int32_t max_session_timeout_ms = 1800000;  // group.max.session.timeout.ms
  // How long the first rebalance of an Empty group waits for more members
  // (group.initial.rebalance.delay.ms; Kafka's default is 3000). Each wait that saw
  // a new member is followed by another, until the rebalance timeout is used up.
  std::int32_t initial_rebalance_delay_ms = 0;
  // How long a brand-new member may stay parked in its first JoinGroup before it
  // is dropped (Kafka's NewMemberJoinTimeoutMs).
  std::int32_t new_member_join_timeout_ms = 300000;
};

}  // namespace kgroups::broker
