// SPDX-License-Identifier: Apache-2.0
//
// A group's rebalance history (Topic::rebalances) -> the Python list of dicts
// SPEC.md specifies: each entry has exactly the keys "generation", "cause",
// "consumer" and "members"; each member exactly "id", "assignment", "revoked"
// and "assigned" (ascending lists of ints). Call with the GIL held.
// partitions_to_python also serves Topic.assignment.
#pragma once

#include <pybind11/pybind11.h>

#include <vector>

#include "kgroups/rebalance.h"

namespace kgroups::python {

// An ascending partition list -> a Python list of ints.
pybind11::list partitions_to_python(const std::vector<int>& partitions);

pybind11::list rebalances_to_python(const std::vector<kgroups::Rebalance>& rebalances);

}  // namespace kgroups::python
