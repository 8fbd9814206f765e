// SPDX-License-Identifier: Apache-2.0
//
// Rebalance: one entry of a group's rebalance history (Topic::rebalances): the
// generation it made, the join or leave that caused it, and for every member
// of the new generation its assignment and the partitions it gave up and got.
//
// What counts as revoked and assigned follows the assignor's protocol, as
// Kafka's rebalance listeners see it: eagerly (range, roundrobin, sticky) a
// member gives up everything it owned and is assigned everything it now owns;
// cooperatively (cooperative-sticky) it gives up only the partitions that move
// away from it and is assigned only the ones new to it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace kgroups {

struct MemberRebalance {
  std::string id;
  std::vector<int> assignment;  // its partitions after the rebalance, ascending
  std::vector<int> revoked;     // partitions it gave up, ascending
  std::vector<int> assigned;    // partitions it was given, ascending

  friend bool operator==(const MemberRebalance&, const MemberRebalance&) = default;
};

struct Rebalance {
  std::int64_t generation = 0;           // 1 for the group's first rebalance, then counting up
  std::string cause;                     // "join" or "leave"
  std::string consumer;                  // the consumer that joined or left
  std::vector<MemberRebalance> members;  // the new generation's members, sorted by id

  friend bool operator==(const Rebalance&, const Rebalance&) = default;
};

}  // namespace kgroups
