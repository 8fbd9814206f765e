// SPDX-License-Identifier: Apache-2.0
//
// The one place where the module maps C++ errors to Python's (SPEC.md, "Errors"):
// std::invalid_argument -> ValueError, std::out_of_range -> IndexError,
// kgroups::NotAssignedError -> kgroups.NotAssignedError, kgroups::NoOffsetError
// -> kgroups.NoOffsetError and kgroups::NotAcquiredError -> kgroups.NotAcquiredError
// (direct subclasses of Exception; a NoOffsetError raised by the engine carries
// .partitions, a list of ints; a NotAcquiredError .partition and .offset, ints). Wrong argument
// types never reach the engine: the argument readers throw py::type_error (TypeError) before any
// engine call. All functions here must be called with the GIL held.
#pragma once

#include <pybind11/pybind11.h>

#include <string>

namespace kgroups::python {

// Creates the exception classes kgroups.NotAssignedError, kgroups.NoOffsetError and
// kgroups.NotAcquiredError, adds them to `module` and
// registers the mapping with pybind11, for this module only (for the functions
// pybind11 dispatches: the constructor).
// Call once, from the module's init function.
void register_errors(pybind11::module_& module);

// Raises kgroups.NotAcquiredError(message) with .partition and .offset set to the given
// Python ints (for records whose numbers do not fit the C++ types), as a pending Python
// error: throws py::error_already_set.
[[noreturn]] void raise_not_acquired_error(const std::string& message, pybind11::handle partition,
                                           pybind11::handle offset);

// Sets the Python error for the C++ exception being handled. Call only inside a
// catch block. Besides the five above: a pybind11 error (error_already_set,
// type_error, ...) becomes its own Python error; anything else RuntimeError.
void raise_current_exception() noexcept;

// Runs `body` (returning a py::object) for a CPython-level method: the new
// reference it returns, or nullptr with the Python error set if it threw.
template <typename Body>
PyObject* guarded(Body&& body) noexcept {
  try {
    return body().release().ptr();
  } catch (...) {
    raise_current_exception();
    return nullptr;
  }
}

}  // namespace kgroups::python
