// SPDX-License-Identifier: Apache-2.0
//
// acknowledge's type and records arguments (see share_args.h).
#include "share_args.h"

#include <climits>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>

#include "integer_args.h"
#include "offsets_arg.h"
#include "text_args.h"

namespace py = pybind11;

namespace kgroups::python {
namespace {

constexpr const char* kChoices = R"("accept", "release" or "reject")";

constexpr const char* kWhat =
    "acknowledge: records must be an iterable of (partition, offset) pairs such as "
    "[(0, 5), (1, 2)], not ";

std::int64_t clamp(const Int64Arg& arg, std::int64_t min, std::int64_t max, bool& clamped) {
  if (arg.overflow < 0 || (arg.overflow == 0 && arg.value < min)) {
    clamped = true;
    return min;
  }
  if (arg.overflow > 0 || arg.value > max) {
    clamped = true;
    return max;
  }
  return arg.value;
}

}  // namespace

bool is_acknowledge_type(py::handle type) { return PyUnicode_Check(type.ptr()) != 0; }

void require_acknowledge_type(py::handle type) {
  if (!is_acknowledge_type(type)) {
    throw py::type_error(std::string("acknowledge: type must be a str, ") + kChoices + ", not " +
                         Py_TYPE(type.ptr())->tp_name);
  }
}

kgroups::AcknowledgeType acknowledge_type_arg(py::handle type) {
  const std::string_view name = utf8_view(type);
  if (name == "accept") return kgroups::AcknowledgeType::kAccept;
  if (name == "release") return kgroups::AcknowledgeType::kRelease;
  if (name == "reject") return kgroups::AcknowledgeType::kReject;
  throw std::invalid_argument("acknowledge: unknown type " + python_repr(type) + "; choose " +
                              kChoices);
}

AcknowledgeRecordsArg acknowledge_records_arg(py::handle records) {
  if (PyUnicode_Check(records.ptr()) || PyBytes_Check(records.ptr()) ||
      PyByteArray_Check(records.ptr()) || is_mapping(records)) {
    throw py::type_error(std::string(kWhat) + Py_TYPE(records.ptr())->tp_name);
  }
  // A list copy first, so that user code run by __index__ cannot change what is iterated.
  auto items = py::reinterpret_steal<py::object>(PySequence_List(records.ptr()));
  if (!items) {
    if (PyErr_ExceptionMatches(PyExc_TypeError)) {
      PyErr_Clear();
      throw py::type_error(std::string(kWhat) + Py_TYPE(records.ptr())->tp_name);
    }
    throw py::error_already_set();
  }
  AcknowledgeRecordsArg arg;
  arg.records.reserve(static_cast<std::size_t>(PyList_GET_SIZE(items.ptr())));
  for (const py::handle item : items) {
    const bool pair = (PyTuple_Check(item.ptr()) && PyTuple_GET_SIZE(item.ptr()) == 2) ||
                      (PyList_Check(item.ptr()) && PyList_GET_SIZE(item.ptr()) == 2);
    if (!pair) {
      throw py::type_error(
          "acknowledge: each record must be a (partition, offset) pair of ints, not " +
          python_repr(item));
    }
    const py::object partition_object = item[py::int_(0)];
    const py::object offset_object = item[py::int_(1)];
    const Int64Arg partition = int64_arg(partition_object, "acknowledge: each record's partition");
    const Int64Arg offset = int64_arg(offset_object, "acknowledge: each record's offset");
    bool clamped = false;
    const auto partition_value = static_cast<int>(clamp(partition, INT_MIN, INT_MAX, clamped));
    const std::int64_t offset_value = clamp(offset, std::numeric_limits<std::int64_t>::min(),
                                            std::numeric_limits<std::int64_t>::max(), clamped);
    if (clamped) {
      arg.clamped.emplace_back(arg.records.size(), py::make_tuple(partition_object, offset_object));
    }
    arg.records.emplace_back(partition_value, offset_value);
  }
  return arg;
}

}  // namespace kgroups::python
