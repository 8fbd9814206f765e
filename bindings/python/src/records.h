// SPDX-License-Identifier: Apache-2.0
//
// Records from Topic::poll -> the Python list of dicts SPEC.md specifies: each
// dict has exactly the keys "partition", "offset", "key" and "value", and key and
// value have the type they were appended with. Call with the GIL held.
#pragma once

#include <pybind11/pybind11.h>

#include <vector>

#include "kgroups/record.h"

namespace kgroups::python {

// The records must stay valid during the call (they view the Topic's log).
pybind11::list records_to_python(const std::vector<kgroups::Record>& records);

}  // namespace kgroups::python
