// SPDX-License-Identifier: Apache-2.0
//
// The one place where the module maps the engine's C++ errors to Python's
// (SPEC.md, "Errors"): std::invalid_argument -> ValueError, std::out_of_range ->
// IndexError, kgroups::NotAssignedError -> kgroups.NotAssignedError (a direct
// subclass of Exception). Wrong argument types never reach the engine: the
// argument readers raise TypeError themselves (py::type_error).
// Call register_errors once, while the module initializes (the GIL is held).
#pragma once

#include <pybind11/pybind11.h>

namespace kgroups::python {

// Creates the exception class kgroups.NotAssignedError, adds it to `module` and
// installs the translator for the three engine errors.
void register_errors(pybind11::module_& module);

}  // namespace kgroups::python
