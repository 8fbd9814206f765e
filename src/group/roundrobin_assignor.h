// SPDX-License-Identifier: Apache-2.0
//
// RoundRobinAssignor: Kafka's RoundRobinAssignor for one topic (SPEC.md,
// "Assignors"): with m members sorted by id, partition p goes to member
// p mod m, so 7 partitions over A, B, C give A [0, 3, 6], B [1, 4], C [2, 5].
// Eager; ignores the previous assignment. Stateless; safe from any thread.
#pragma once

#include "group/assignor.h"

namespace kgroups {

class RoundRobinAssignor final : public Assignor {
 public:
  using Assignor::assign;
  [[nodiscard]] std::string_view name() const noexcept override { return "roundrobin"; }
  void assign(int num_partitions, std::span<const std::string_view> member_ids,
              std::span<const std::vector<int>> previous,
              std::span<std::vector<int>> assignments) const override;
};

}  // namespace kgroups
