// SPDX-License-Identifier: Apache-2.0
//
// Python's argument binding rules for fastcall functions (see method_args.h).
#include "method_args.h"

#include <array>
#include <string>

namespace py = pybind11;

namespace kgroups::python {

void bind_arguments(const char* function, std::span<const char* const> names, std::size_t required,
                    PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames,
                    std::span<PyObject*> slots) {
  const auto positional = static_cast<std::size_t>(nargs);
  if (positional > names.size()) {
    throw py::type_error(std::string(function) + "() takes at most " +
                         std::to_string(names.size()) + " arguments (" +
                         std::to_string(positional) + " given)");
  }
  constexpr std::size_t kMaxParameters = 8;
  if (names.size() > kMaxParameters || slots.size() < names.size()) {
    throw py::type_error(std::string(function) + "(): bad parameter table");
  }
  std::array<bool, kMaxParameters> given{};
  for (std::size_t i = 0; i < positional; ++i) {
    slots[i] = args[i];
    given[i] = true;
  }
  const Py_ssize_t keywords = kwnames == nullptr ? 0 : PyTuple_GET_SIZE(kwnames);
  for (Py_ssize_t k = 0; k < keywords; ++k) {
    PyObject* keyword = PyTuple_GET_ITEM(kwnames, k);
    std::size_t index = 0;
    while (index < names.size() && PyUnicode_CompareWithASCIIString(keyword, names[index]) != 0) {
      ++index;
    }
    if (index == names.size()) {
      throw py::type_error(std::string(function) + "() got an unexpected keyword argument " +
                           py::repr(keyword).cast<std::string>());
    }
    if (given[index]) {
      throw py::type_error(std::string(function) + "() got multiple values for argument '" +
                           names[index] + "'");
    }
    slots[index] = args[nargs + k];
    given[index] = true;
  }
  for (std::size_t i = 0; i < required; ++i) {
    if (!given[i]) {
      throw py::type_error(std::string(function) + "() missing required argument '" + names[i] +
                           "' (pos " + std::to_string(i + 1) + ")");
    }
  }
}

}  // namespace kgroups::python
