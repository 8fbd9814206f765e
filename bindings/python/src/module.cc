// SPDX-License-Identifier: Apache-2.0
//
// _kgroups: the private native module behind the `kgroups` package. Registration
// only: errors, partition_for and Topic. Python code imports `kgroups`, whose
// __init__.py re-exports what is defined here.
#include <pybind11/pybind11.h>

#include "errors.h"
#include "topic_binding.h"
#include "topic_method_table.h"

namespace py = pybind11;

PYBIND11_MODULE(_kgroups, module) {
  py::options options;
  options.disable_function_signatures();  // docstrings start with their own signature

  module.doc() = "Native half of the kgroups package; import kgroups instead.";
  kgroups::python::register_errors(module);
  kgroups::python::add_partition_for(module);
  kgroups::python::register_topic(module);
}
