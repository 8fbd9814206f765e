// SPDX-License-Identifier: Apache-2.0
#include "group/assignor_catalog.h"

#include "group/range_assignor.h"
#include "group/roundrobin_assignor.h"
#include "group/sticky_assignor.h"

namespace kgroups {

const Assignor* assignor_named(std::string_view name) noexcept {
  static const RangeAssignor range;
  static const RoundRobinAssignor roundrobin;
  static const StickyAssignor sticky(RebalanceProtocol::kEager);
  static const StickyAssignor cooperative_sticky(RebalanceProtocol::kCooperative);
  for (const Assignor* assignor :
       {static_cast<const Assignor*>(&range), static_cast<const Assignor*>(&roundrobin),
        static_cast<const Assignor*>(&sticky), static_cast<const Assignor*>(&cooperative_sticky)}) {
    if (assignor->name() == name) return assignor;
  }
  return nullptr;
}

}  // namespace kgroups
