// SPDX-License-Identifier: Apache-2.0
//
// UniformAssignor: Kafka's `uniform` server-side assignor, balanced and sticky.
// - Homogeneous group (every member subscribes to the same topics): partition counts
//   differ by at most 1 between members, and a member keeps as much of its current
//   target as that allows, so the fewest partitions move.
// - Heterogeneous group: a member keeps its current partitions of topics it still
//   subscribes to; the rest go to the least loaded subscriber, then partitions move
//   from a member to a subscriber of the same topic with at least 2 fewer until none
//   can (best effort, as Kafka's general builder; bounded passes).
// Rack awareness is not implemented. Stateless; thread-safe.
#pragma once

#include "broker/coordinator/server_assignor.h"

namespace kgroups::broker {

class UniformAssignor final : public ServerAssignor {
 public:
  [[nodiscard]] std::string_view name() const noexcept override { return "uniform"; }
  [[nodiscard]] std::vector<ConsumerAssignment> assign(const AssignmentSpec& spec) const override;
};

}  // namespace kgroups::broker
