// SPDX-License-Identifier: Apache-2.0
//
// Records from Topic::poll -> the Python list of dicts SPEC.md specifies: each
// dict has exactly the keys "partition", "offset", "key" and "value", and key and
// value have the type they were appended with; share_poll's dicts have the key
// "delivery_count" too. Call with the GIL held.
#pragma once

#include <pybind11/pybind11.h>

#include <vector>

#include "kgroups/record.h"
#include "kgroups/share_record.h"

namespace kgroups::python {

// The records must stay valid during the call (they view the Topic's log).
pybind11::list records_to_python(const std::vector<kgroups::Record>& records);

// The same dicts with "delivery_count" (an int, 1 on the first delivery) added last.
pybind11::list share_records_to_python(const std::vector<kgroups::ShareRecord>& records);

}  // namespace kgroups::python
