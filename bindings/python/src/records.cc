// SPDX-License-Identifier: Apache-2.0
//
// std::vector<Record> -> list[dict] (see records.h). This is the hot path of poll,
// so it uses the C API directly: interned field names, a pre-sized list, and one
// str/bytes object per key reused while consecutive records share the key.
#include "records.h"

#include <string_view>

#include "key_value.h"

namespace py = pybind11;

namespace kgroups::python {
namespace {

struct FieldNames {
  PyObject* partition;
  PyObject* offset;
  PyObject* key;
  PyObject* value;
};

// Interned once; the strings live for the rest of the process.
const FieldNames& field_names() {
  static const FieldNames names = [] {
    FieldNames created{PyUnicode_InternFromString("partition"),
                       PyUnicode_InternFromString("offset"), PyUnicode_InternFromString("key"),
                       PyUnicode_InternFromString("value")};
    if (created.partition == nullptr || created.offset == nullptr || created.key == nullptr ||
        created.value == nullptr) {
      throw py::error_already_set();
    }
    return created;
  }();
  return names;
}

// Sets dict[name] = value and drops the reference to value (a new reference, or
// nullptr when creating it failed).
void set_field(PyObject* dict, PyObject* name, PyObject* value) {
  if (value == nullptr) {
    throw py::error_already_set();
  }
  const int status = PyDict_SetItem(dict, name, value);
  Py_DECREF(value);
  if (status != 0) {
    throw py::error_already_set();
  }
}

}  // namespace

py::list records_to_python(const std::vector<kgroups::Record>& records) {
  const FieldNames& names = field_names();
  py::list list(records.size());
  // Records of one key are often adjacent: share one immutable key object.
  py::object previous_key;
  std::string_view previous_key_bytes;
  kgroups::Encoding previous_key_encoding = kgroups::Encoding::kBytes;

  Py_ssize_t index = 0;
  for (const kgroups::Record& record : records) {
    if (!previous_key || record.key_encoding != previous_key_encoding ||
        record.key != previous_key_bytes) {
      previous_key =
          py::reinterpret_steal<py::object>(key_value_to_python(record.key, record.key_encoding));
      if (!previous_key) {
        throw py::error_already_set();
      }
      previous_key_bytes = record.key;
      previous_key_encoding = record.key_encoding;
    }
    py::object dict = py::reinterpret_steal<py::object>(PyDict_New());
    if (!dict) {
      throw py::error_already_set();
    }
    set_field(dict.ptr(), names.partition, PyLong_FromLong(record.partition));
    set_field(dict.ptr(), names.offset, PyLong_FromLongLong(record.offset));
    set_field(dict.ptr(), names.key, previous_key.inc_ref().ptr());
    set_field(dict.ptr(), names.value, key_value_to_python(record.value, record.value_encoding));
    PyList_SET_ITEM(list.ptr(), index++, dict.release().ptr());
  }
  return list;
}

}  // namespace kgroups::python
