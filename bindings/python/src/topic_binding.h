// SPDX-License-Identifier: Apache-2.0
//
// Registers kgroups.Topic: the C++ kgroups::Topic under SPEC.md's Python API. The
// methods read and check their arguments' types (TypeError), hand off to the
// engine and convert the results; every rule lives in the engine.
// The engine is thread-safe; poll, join and leave run with the GIL released.
#pragma once

#include <pybind11/pybind11.h>

namespace kgroups::python {

void register_topic(pybind11::module_& module);

}  // namespace kgroups::python
