// SPDX-License-Identifier: Apache-2.0
//
// RangeAssignor: Kafka's range assignor for one topic (SPEC.md, "Rebalance").
// With n partitions and m members sorted by id, each member gets n / m
// consecutive partitions and the first n % m members get one extra; members
// beyond the partition count get none. Eager; ignores the previous
// assignment. Stateless; safe from any thread.
#pragma once

#include "group/assignor.h"

namespace kgroups {

class RangeAssignor final : public Assignor {
 public:
  using Assignor::assign;
  [[nodiscard]] std::string_view name() const noexcept override { return "range"; }
  void assign(int num_partitions, std::span<const std::string_view> member_ids,
              std::span<const std::vector<int>> previous,
              std::span<std::vector<int>> assignments) const override;
};

}  // namespace kgroups
