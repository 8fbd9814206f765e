// SPDX-License-Identifier: Apache-2.0
//
// kgroups.Topic's class registration (see topic_binding.h).
#include "topic_binding.h"

#include <memory>
#include <string>

#include "integer_args.h"
#include "kgroups/topic.h"
#include "topic_method_table.h"

namespace py = pybind11;

namespace kgroups::python {
namespace {

using kgroups::Topic;

std::unique_ptr<Topic> make_topic(py::handle num_partitions) {
  return std::make_unique<Topic>(num_partitions_arg(num_partitions, "Topic"));
}

std::string topic_repr(const Topic& topic) {
  return "kgroups.Topic(num_partitions=" + std::to_string(topic.num_partitions()) + ")";
}

}  // namespace

void register_topic(py::module_& module) {
  py::class_<Topic> topic_class(module, "Topic", R"doc(Topic(num_partitions)

One topic of Kafka's consumer-group model (SPEC.md): num_partitions
append-only partitions, and consumer groups that split them with the range
assignor, track positions and committed offsets, and rebalance eagerly on
every join and leave.

num_partitions is an int >= 1 (ValueError otherwise). Keys and values are
str or bytes; group names and consumer ids are str. A Topic is safe to use
from several threads at once; every call is atomic, and an error leaves the
topic exactly as it was.)doc");
  topic_class
      .def(py::init(&make_topic), py::arg("num_partitions"),
           "__init__(self, num_partitions: int) -> None\n\n"
           "A new empty topic with partitions 0..num_partitions-1.\n"
           "Raises ValueError if num_partitions < 1, TypeError if it is not an int.")
      .def_property_readonly("num_partitions", &Topic::num_partitions,
                             "The number of partitions (int), fixed at creation.")
      .def("__repr__", &topic_repr, "__repr__(self) -> str");
  add_topic_methods(topic_class);
}

}  // namespace kgroups::python
