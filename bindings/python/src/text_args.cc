// SPDX-License-Identifier: Apache-2.0
//
// str -> UTF-8 views for group names and consumer ids (see text_args.h).
#include "text_args.h"

#include <string>

namespace py = pybind11;

namespace kgroups::python {

void require_text(py::handle object, const char* what) {
  if (!PyUnicode_Check(object.ptr())) {
    throw py::type_error(std::string(what) + " must be a str, not " +
                         Py_TYPE(object.ptr())->tp_name);
  }
}

std::string_view utf8_view(py::handle object) {
  Py_ssize_t size = 0;
  const char* data = PyUnicode_AsUTF8AndSize(object.ptr(), &size);
  if (data == nullptr) {
    throw py::error_already_set();
  }
  return {data, static_cast<std::size_t>(size)};
}

}  // namespace kgroups::python
