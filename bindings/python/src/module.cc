// SPDX-License-Identifier: Apache-2.0
//
// _kgroups: the private native module behind the `kgroups` package. Registration
// only: errors, partition_for and Topic. Python code imports `kgroups`, whose
// __init__.py re-exports what is defined here.
#include <pybind11/pybind11.h>

#include "errors.h"
#include "integer_args.h"
#include "key_value.h"
#include "kgroups/partitioner.h"
#include "topic_binding.h"

namespace py = pybind11;

namespace {

int partition_for(py::handle key, py::handle num_partitions) {
  kgroups::python::require_key_value(key, "key");
  kgroups::python::require_int(num_partitions, "num_partitions");
  const int checked = kgroups::python::num_partitions_arg(num_partitions, "partition_for");
  return kgroups::partition_for(kgroups::python::key_value_view(key).bytes, checked);
}

}  // namespace

PYBIND11_MODULE(_kgroups, module) {
  py::options options;
  options.disable_function_signatures();  // each docstring starts with its own signature

  module.doc() = "Native half of the kgroups package; import kgroups instead.";
  kgroups::python::register_errors(module);
  module.def("partition_for", &partition_for, py::arg("key"), py::arg("num_partitions"),
             R"doc(partition_for(key: str | bytes, num_partitions: int) -> int

The partition a key lands on: 32-bit FNV-1a over the key's bytes (UTF-8 for
a str), modulo num_partitions. Raises ValueError if num_partitions < 1,
TypeError for a key that is not str or bytes.)doc");
  kgroups::python::register_topic(module);
}
