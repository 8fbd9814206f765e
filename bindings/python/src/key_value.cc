// SPDX-License-Identifier: Apache-2.0
//
// str/bytes <-> engine bytes for record keys and values (see key_value.h).
#include "key_value.h"

#include <string>

namespace py = pybind11;

namespace kgroups::python {

void require_key_value(py::handle object, const char* what) {
  PyObject* raw = object.ptr();
  if (PyUnicode_Check(raw) || PyBytes_Check(raw)) {
    return;
  }
  const std::string name(what);
  throw py::type_error(name + " must be str or bytes, not " + Py_TYPE(raw)->tp_name +
                       ": serialize it first, e.g. json.dumps(" + name +
                       ") for a str or json.dumps(" + name + ").encode() for bytes");
}

KeyValueView key_value_view(py::handle object) {
  PyObject* raw = object.ptr();
  if (PyBytes_Check(raw)) {
    return {{PyBytes_AS_STRING(raw), static_cast<std::size_t>(PyBytes_GET_SIZE(raw))},
            kgroups::Encoding::kBytes};
  }
  Py_ssize_t size = 0;
  const char* data = PyUnicode_AsUTF8AndSize(raw, &size);
  if (data == nullptr) {
    throw py::error_already_set();
  }
  return {{data, static_cast<std::size_t>(size)}, kgroups::Encoding::kText};
}

PyObject* key_value_to_python(std::string_view bytes, kgroups::Encoding encoding) {
  const auto size = static_cast<Py_ssize_t>(bytes.size());
  if (encoding == kgroups::Encoding::kText) {
    return PyUnicode_DecodeUTF8(bytes.data(), size, nullptr);
  }
  return PyBytes_FromStringAndSize(bytes.data(), size);
}

}  // namespace kgroups::python
