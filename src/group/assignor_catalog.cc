// SPDX-License-Identifier: Apache-2.0
#include "group/assignor_catalog.h"

#include "group/range_assignor.h"
#include "group/roundrobin_assignor.h"
#include "group/sticky_assignor.h"

namespace kgroups {

const Assignor* assignor_named(std::string_view name) noexcept {
  static const RangeAssignor kRange;
  static const RoundRobinAssignor kRoundRobin;
  static const StickyAssignor kSticky(RebalanceProtocol::kEager);
  static const StickyAssignor kCooperativeSticky(RebalanceProtocol::kCooperative);
  for (const Assignor* assignor :
       {static_cast<const Assignor*>(&kRange), static_cast<const Assignor*>(&kRoundRobin),
        static_cast<const Assignor*>(&kSticky),
        static_cast<const Assignor*>(&kCooperativeSticky)}) {
    if (assignor->name() == name) return assignor;
  }
  return nullptr;
}

}  // namespace kgroups
