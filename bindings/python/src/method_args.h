// SPDX-License-Identifier: Apache-2.0
//
// Argument binding for the module's CPython-level (METH_FASTCALL | METH_KEYWORDS)
// functions: positional and keyword arguments -> one slot per parameter, with
// Python's own rules (missing, unexpected, duplicated and surplus arguments are
// TypeErrors). Call with the GIL held.
#pragma once

#include <pybind11/pybind11.h>

#include <cstddef>
#include <span>

namespace kgroups::python {

// Stores borrowed references to the arguments in `slots` (one per name in
// `names`, same order). The first `required` parameters must be given; the
// others keep the value `slots` had on entry (the caller's default).
// Throws py::type_error with Python's usual wording otherwise.
void bind_arguments(const char* function, std::span<const char* const> names, std::size_t required,
                    PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames,
                    std::span<PyObject*> slots);

}  // namespace kgroups::python
