// SPDX-License-Identifier: Apache-2.0
//
// std::vector<Rebalance> -> list[dict] (see rebalances.h).
#include "rebalances.h"

#include <cstddef>
#include <string>
#include <utility>

namespace py = pybind11;

namespace kgroups::python {
namespace {

// Names and causes are the UTF-8 the bindings passed in, so decoding cannot fail
// for them; a failure is reported as the Python error it raised.
py::str text_to_python(const std::string& text) {
  PyObject* decoded =
      PyUnicode_DecodeUTF8(text.data(), static_cast<Py_ssize_t>(text.size()), nullptr);
  if (decoded == nullptr) {
    throw py::error_already_set();
  }
  return py::reinterpret_steal<py::str>(decoded);
}

py::dict member_to_python(const kgroups::MemberRebalance& member) {
  py::dict dict;
  dict["id"] = text_to_python(member.id);
  dict["assignment"] = partitions_to_python(member.assignment);
  dict["revoked"] = partitions_to_python(member.revoked);
  dict["assigned"] = partitions_to_python(member.assigned);
  return dict;
}

py::dict rebalance_to_python(const kgroups::Rebalance& rebalance) {
  py::list members(rebalance.members.size());
  for (std::size_t i = 0; i < rebalance.members.size(); ++i) {
    members[i] = member_to_python(rebalance.members[i]);
  }
  py::dict dict;
  dict["generation"] = py::int_(rebalance.generation);
  dict["cause"] = text_to_python(rebalance.cause);
  dict["consumer"] = text_to_python(rebalance.consumer);
  dict["members"] = std::move(members);
  return dict;
}

}  // namespace

py::list partitions_to_python(const std::vector<int>& partitions) {
  py::list list(partitions.size());
  for (std::size_t i = 0; i < partitions.size(); ++i) {
    PyObject* partition = PyLong_FromLong(partitions[i]);
    if (partition == nullptr) {
      throw py::error_already_set();
    }
    PyList_SET_ITEM(list.ptr(), static_cast<Py_ssize_t>(i), partition);
  }
  return list;
}

py::list rebalances_to_python(const std::vector<kgroups::Rebalance>& rebalances) {
  py::list list(rebalances.size());
  for (std::size_t i = 0; i < rebalances.size(); ++i) {
    list[i] = rebalance_to_python(rebalances[i]);
  }
  return list;
}

}  // namespace kgroups::python
