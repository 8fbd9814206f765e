// SPDX-License-Identifier: Apache-2.0
//
// log_group_refusal(): one WARN line when the coordinator refuses a group call because of a
// limit (id lengths, --group-max-size, --max-groups, the groups' memory share, offset
// metadata), naming the flag, so an operator can tell a limit from a client bug. At most
// one line per second (LogThrottle): a client retrying in a loop cannot flood the log.
// Not thread-safe: the broker's network thread.
#pragma once

#include <string_view>

#include "broker/coordinator/group_error.h"

namespace kgroups::broker::handlers {

// Logs `api`'s refusal of `error` for `group` from `peer`, if `error` is one a limit gives.
// `detail`, when given, is the coordinator's own account of the refusal and replaces the
// generic one (INVALID_REQUEST from ConsumerGroupHeartbeat has several causes).
void log_group_refusal(std::string_view peer, std::string_view api, std::string_view group,
                       GroupError error, std::string_view detail = {});

}  // namespace kgroups::broker::handlers
