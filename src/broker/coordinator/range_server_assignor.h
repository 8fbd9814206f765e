// SPDX-License-Identifier: Apache-2.0
//
// RangeServerAssignor: the `range` server-side assignor. Per topic, the members
// subscribed to it, sorted by member id, get consecutive ranges of partitions, the
// first ones one extra, computed by the model's kgroups::RangeAssignor, so the model
// and the broker share one tested range assignment. Not sticky, as range is not.
// Stateless; thread-safe.
#pragma once

#include "broker/coordinator/server_assignor.h"

namespace kgroups::broker {

class RangeServerAssignor final : public ServerAssignor {
 public:
  [[nodiscard]] std::string_view name() const noexcept override { return "range"; }
  [[nodiscard]] std::vector<ConsumerAssignment> assign(const AssignmentSpec& spec) const override;
};

}  // namespace kgroups::broker
