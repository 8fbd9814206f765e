// SPDX-License-Identifier: Apache-2.0
//
// StickyAssignor: Kafka's sticky rules for one topic (SPEC.md, "Assignors"),
// as "sticky" (eager) or "cooperative-sticky" (cooperative). The assignment is
// as balanced as possible (partition counts differ by at most one) and,
// subject to that, keeps as many partitions with their previous owner as
// possible:
//   - n mod m members get n / m + 1 partitions, the others n / m; the larger
//     shares go to the members that owned the most before (ties: smaller id);
//   - each member keeps its lowest-numbered previous partitions up to its share;
//   - the rest are dealt in ascending order to the members below their share,
//     in id order, each filled up before the next.
// Giving the larger shares to the largest previous owners maximizes the
// partitions kept: a member keeps min(previous, share) of them.
// Stateless; safe from any thread.
#pragma once

#include "group/assignor.h"

namespace kgroups {

class StickyAssignor final : public Assignor {
 public:
  using Assignor::assign;
  explicit StickyAssignor(RebalanceProtocol protocol) noexcept : protocol_(protocol) {}

  [[nodiscard]] std::string_view name() const noexcept override {
    return protocol_ == RebalanceProtocol::kCooperative ? "cooperative-sticky" : "sticky";
  }
  [[nodiscard]] RebalanceProtocol protocol() const noexcept override { return protocol_; }

  void assign(int num_partitions, std::span<const std::string_view> member_ids,
              std::span<const std::vector<int>> previous,
              std::span<std::vector<int>> assignments) const override;

 private:
  RebalanceProtocol protocol_;
};

}  // namespace kgroups
