// SPDX-License-Identifier: Apache-2.0
//
// assign_as_leader: what a simulated consumer computes when the coordinator makes it the
// group's leader — one topic's partitions split among the members subscribed to it, by one of
// the model's assignors (src/group). Member ids are sorted bytewise into the model's member
// order and the result mapped back. Each member's owned partitions are the assignor's
// `previous` (sticky keeps them). With a cooperative assignor (KIP-429 on the classic
// protocol) a partition that moves from one member to another is withheld: its owner revokes
// it and rejoins, and the next rebalance hands it to its new owner.
// Thread-safe: a pure function.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "group/assignor.h"

namespace kgroups::broker::playground {

struct LeaderView {
  std::string member_id;
  bool subscribed = false;          // subscribed to the topic being assigned
  std::vector<std::int32_t> owned;  // partitions of the topic it owns now, any order
};

// One partition list per member of `members`, in the same order (empty for members not
// subscribed). `num_partitions` >= 1.
std::vector<std::vector<std::int32_t>> assign_as_leader(const Assignor& assignor,
                                                        int num_partitions,
                                                        const std::vector<LeaderView>& members);

}  // namespace kgroups::broker::playground
