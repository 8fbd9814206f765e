// SPDX-License-Identifier: Apache-2.0
//
// Group names and consumer ids: Python str, passed to the engine as UTF-8
// (SPEC.md compares and sorts them by their UTF-8 bytes). Call with the GIL held.
#pragma once

#include <pybind11/pybind11.h>

#include <string_view>

namespace kgroups::python {

// Throws py::type_error ("group must be a str, not bytes") unless `object` is a str.
void require_text(pybind11::handle object, const char* what);

// The UTF-8 bytes of the str `object` (checked by require_text first). The view
// lives as long as `object`. A str that has no UTF-8 form (a lone surrogate)
// raises UnicodeEncodeError, as str.encode() does.
std::string_view utf8_view(pybind11::handle object);

}  // namespace kgroups::python
