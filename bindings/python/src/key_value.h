// SPDX-License-Identifier: Apache-2.0
//
// Record keys and values: Python str (stored as UTF-8, tagged Encoding::kText) or
// bytes (stored as is, tagged Encoding::kBytes); poll turns each back into the
// type it was appended as. Anything else is a TypeError that tells the user to
// serialize first. Call with the GIL held.
#pragma once

#include <pybind11/pybind11.h>

#include <string_view>

#include "kgroups/record.h"

namespace kgroups::python {

struct KeyValueView {
  std::string_view bytes;  // lives as long as the Python object it came from
  kgroups::Encoding encoding = kgroups::Encoding::kBytes;
};

// Throws py::type_error unless `object` is a str or bytes (subclasses included).
void require_key_value(pybind11::handle object, const char* what);

// The bytes of a str or bytes `object` (checked by require_key_value first). A str
// with no UTF-8 form (a lone surrogate) raises UnicodeEncodeError.
KeyValueView key_value_view(pybind11::handle object);

// A new str (kText) or bytes (kBytes) object holding `bytes`; nullptr with a
// Python error set if that fails.
PyObject* key_value_to_python(std::string_view bytes, kgroups::Encoding encoding);

}  // namespace kgroups::python
