// SPDX-License-Identifier: Apache-2.0
//
// kgroups.Topic's class registration (see topic_binding.h).
#include "topic_binding.h"

#include <memory>
#include <string>

#include "integer_args.h"
#include "kgroups/topic.h"
#include "kgroups/topic_options.h"
#include "topic_method_table.h"
#include "topic_options_arg.h"

namespace py = pybind11;

namespace kgroups::python {
namespace {

using kgroups::Topic;

// Types first (num_partitions, then the options in SPEC.md's table order), then
// the engine checks the values in the same order.
std::unique_ptr<Topic> make_topic(py::handle num_partitions, py::handle partitioner,
                                  py::handle assignor, py::handle auto_offset_reset) {
  require_int(num_partitions, "num_partitions");
  const kgroups::TopicOptions options = topic_options_arg(partitioner, assignor, auto_offset_reset);
  return std::make_unique<Topic>(num_partitions_arg(num_partitions, "Topic"), options);
}

// ", name='value'" if the option differs from its default, else "".
std::string non_default(const char* name, const std::string& value, const std::string& fallback) {
  if (value == fallback) {
    return "";
  }
  return std::string(", ") + name + "=" + python_repr(py::str(value));
}

// A default topic keeps the lab's repr; options show only where they differ.
std::string topic_repr(const Topic& topic) {
  const kgroups::TopicOptions& options = topic.options();
  const kgroups::TopicOptions defaults;
  return "kgroups.Topic(num_partitions=" + std::to_string(topic.num_partitions()) +
         non_default("partitioner", options.partitioner, defaults.partitioner) +
         non_default("assignor", options.assignor, defaults.assignor) +
         non_default("auto_offset_reset", options.auto_offset_reset, defaults.auto_offset_reset) +
         ")";
}

}  // namespace

void register_topic(py::module_& module) {
  py::class_<Topic> topic_class(
      module, "Topic",
      R"doc(Topic(num_partitions, *, partitioner="fnv1a", assignor="range", auto_offset_reset="earliest")

One topic of Kafka's consumer-group model (SPEC.md): num_partitions
append-only partitions, and consumer groups that split them among their
members, track positions and committed offsets, and rebalance on every join
and leave. With the default options this is the lab's model: FNV-1a
partitioning, the range assignor, eager rebalances and groups that start
from offset 0.

num_partitions is an int >= 1 (ValueError otherwise). Keys and values are
str or bytes; group names and consumer ids are str. A Topic is safe to use
from several threads at once; every call is atomic, and an error leaves the
topic exactly as it was.

Options (keyword-only str; the first choice is the default):

partitioner: where append puts a keyed record.
  "fnv1a"     32-bit FNV-1a of the key's bytes, modulo num_partitions.
  "murmur2"   Kafka's default partitioner: murmur2 of the key's bytes
              & 0x7fffffff, modulo num_partitions.
assignor: how a rebalance splits the partitions (members sorted by id).
  "range"               consecutive ranges, the first members get one extra.
  "roundrobin"          partition p goes to the (p mod members)-th member.
  "sticky"              balanced, and as few partitions as possible move.
  "cooperative-sticky"  the sticky assignment, rebalanced cooperatively.
  range, roundrobin and sticky are eager: every rebalance restarts every
  member's partitions from the committed offsets. cooperative-sticky keeps
  each member's position on every partition it keeps; only partitions that
  move restart from the committed offset.
auto_offset_reset: where a group starts on a partition it never committed.
  "earliest"  offset 0.
  "latest"    the partition's end offset when it is assigned.
  "none"      no position: poll raises NoOffsetError naming the partitions
              until the group commits an offset for them.

A value that is not a str is a TypeError; a str that is not one of the
choices is a ValueError naming the option and its choices.

Besides the lab's methods, lag(group) gives {partition: end_offset -
committed} and rebalances(group) the group's rebalance history.)doc");
  topic_class
      .def(py::init(&make_topic), py::arg("num_partitions"), py::kw_only(),
           py::arg("partitioner") = "fnv1a", py::arg("assignor") = "range",
           py::arg("auto_offset_reset") = "earliest",
           "__init__(self, num_partitions: int, *, partitioner: str = 'fnv1a', "
           "assignor: str = 'range', auto_offset_reset: str = 'earliest') -> None\n\n"
           "A new empty topic with partitions 0..num_partitions-1 and the given options\n"
           "(see help(kgroups.Topic)). Raises ValueError if num_partitions < 1 or an\n"
           "option is not one of its choices, TypeError if num_partitions is not an int\n"
           "or an option not a str.")
      .def_property_readonly("num_partitions", &Topic::num_partitions,
                             "The number of partitions (int), fixed at creation.")
      .def("__repr__", &topic_repr, "__repr__(self) -> str");
  add_topic_methods(topic_class);
}

}  // namespace kgroups::python
