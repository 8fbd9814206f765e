// SPDX-License-Identifier: Apache-2.0
//
// Python int -> C++ integer conversions of the _kgroups module (see integer_args.h).
#include "integer_args.h"

#include <climits>
#include <stdexcept>

namespace py = pybind11;

namespace kgroups::python {
namespace {

bool is_integer(PyObject* object) { return PyLong_Check(object) || PyIndex_Check(object); }

}  // namespace

void require_int(py::handle object, const char* what) {
  if (!is_integer(object.ptr())) {
    throw py::type_error(std::string(what) + " must be an int, not " +
                         Py_TYPE(object.ptr())->tp_name);
  }
}

Int64Arg int64_arg(py::handle object, const char* what) {
  require_int(object, what);
  auto integer = py::reinterpret_borrow<py::object>(object);
  if (!PyLong_Check(object.ptr())) {
    integer = py::reinterpret_steal<py::object>(PyNumber_Index(object.ptr()));
    if (!integer) {
      throw py::error_already_set();
    }
  }
  int overflow = 0;
  const long long value = PyLong_AsLongLongAndOverflow(integer.ptr(), &overflow);
  if (value == -1 && PyErr_Occurred() != nullptr) {
    throw py::error_already_set();
  }
  return Int64Arg{static_cast<std::int64_t>(value), overflow};
}

int num_partitions_arg(py::handle object, const char* method) {
  const Int64Arg arg = int64_arg(object, "num_partitions");
  if (arg.overflow != 0 || arg.value > INT_MAX || arg.value < INT_MIN) {
    throw std::invalid_argument(std::string(method) +
                                ": num_partitions must be at least 1 and at most " +
                                std::to_string(INT_MAX) + ", got " + python_repr(object));
  }
  return static_cast<int>(arg.value);
}

int partition_arg(const kgroups::Topic& topic, py::handle object, const char* method) {
  const Int64Arg arg = int64_arg(object, "partition");
  if (arg.overflow != 0 || arg.value > INT_MAX || arg.value < INT_MIN) {
    throw std::out_of_range(std::string(method) + ": partition " + python_repr(object) +
                            " is out of range; this topic has partitions 0.." +
                            std::to_string(topic.num_partitions() - 1));
  }
  return static_cast<int>(arg.value);
}

int max_records_arg(py::handle object) {
  const Int64Arg arg = int64_arg(object, "max_records");
  if (arg.overflow < 0 || (arg.overflow == 0 && arg.value < INT_MIN)) {
    throw std::invalid_argument("poll: max_records must be 0 or more, got " + python_repr(object));
  }
  if (arg.overflow > 0 || arg.value > INT_MAX) {
    return INT_MAX;
  }
  return static_cast<int>(arg.value);
}

std::string python_repr(py::handle object) { return py::repr(object).cast<std::string>(); }

}  // namespace kgroups::python
