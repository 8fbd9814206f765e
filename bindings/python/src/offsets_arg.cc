// SPDX-License-Identifier: Apache-2.0
//
// Mapping {partition: offset} -> std::map<int, std::int64_t> (see offsets_arg.h).
#include "offsets_arg.h"

#include <climits>
#include <limits>

#include "integer_args.h"

namespace py = pybind11;

namespace kgroups::python {

bool is_mapping(py::handle offsets) {
  if (PyDict_Check(offsets.ptr())) {
    return true;
  }
  const py::object mapping = py::module_::import("collections.abc").attr("Mapping");
  const int result = PyObject_IsInstance(offsets.ptr(), mapping.ptr());
  if (result < 0) {
    throw py::error_already_set();
  }
  return result == 1;
}

OffsetsArg offsets_arg(py::handle offsets) {
  // A list copy of the items, so that user code run by __index__ cannot change
  // what is being iterated.
  py::object items;
  if (PyDict_Check(offsets.ptr())) {
    items = py::reinterpret_steal<py::object>(PyDict_Items(offsets.ptr()));
  } else {
    items = py::reinterpret_steal<py::object>(PySequence_List(offsets.attr("items")().ptr()));
  }
  if (!items) {
    throw py::error_already_set();
  }
  OffsetsArg arg;
  for (const py::handle item : items) {
    if (!PyTuple_Check(item.ptr()) || PyTuple_GET_SIZE(item.ptr()) != 2) {
      throw py::type_error("offsets: items() must yield (partition, offset) pairs");
    }
    const py::handle partition_object = PyTuple_GET_ITEM(item.ptr(), 0);
    const py::handle offset_object = PyTuple_GET_ITEM(item.ptr(), 1);
    const Int64Arg partition = int64_arg(partition_object, "offsets: each partition (key)");
    const Int64Arg offset = int64_arg(offset_object, "offsets: each offset (value)");
    if (partition.overflow != 0 || partition.value > INT_MAX || partition.value < INT_MIN) {
      if (!arg.unrepresentable_partition) {
        arg.unrepresentable_partition = py::reinterpret_borrow<py::object>(partition_object);
      }
      continue;
    }
    std::int64_t value = offset.value;
    if (offset.overflow != 0) {
      value = offset.overflow < 0 ? std::numeric_limits<std::int64_t>::min()
                                  : std::numeric_limits<std::int64_t>::max();
      if (!arg.unrepresentable_offset) {
        arg.unrepresentable_offset = py::reinterpret_borrow<py::object>(offset_object);
        arg.unrepresentable_offset_partition = static_cast<int>(partition.value);
      }
    }
    arg.offsets[static_cast<int>(partition.value)] = value;
  }
  return arg;
}

}  // namespace kgroups::python
