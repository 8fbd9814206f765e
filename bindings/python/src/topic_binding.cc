// SPDX-License-Identifier: Apache-2.0
//
// kgroups.Topic's class registration (see topic_binding.h).
#include "topic_binding.h"

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include "integer_args.h"
#include "kgroups/topic.h"
#include "kgroups/topic_options.h"
#include "share_method_table.h"
#include "topic_method_table.h"
#include "topic_options_arg.h"

namespace py = pybind11;

namespace kgroups::python {
namespace {

using kgroups::Topic;

// Types first (num_partitions, then the options in SPEC.md's order), then the engine
// checks the values in the same order.
std::unique_ptr<Topic> make_topic(py::handle num_partitions, py::handle partitioner,
                                  py::handle assignor, py::handle auto_offset_reset,
                                  py::handle share_auto_offset_reset,
                                  py::handle record_lock_duration_ms,
                                  py::handle delivery_count_limit,
                                  py::handle partition_max_record_locks) {
  require_int(num_partitions, "num_partitions");
  const TopicOptionsArg options = topic_options_arg(
      {partitioner, assignor, auto_offset_reset, share_auto_offset_reset, record_lock_duration_ms,
       delivery_count_limit, partition_max_record_locks});
  const int count = num_partitions_arg(num_partitions, "Topic");
  try {
    return std::make_unique<Topic>(count, options.options);
  } catch (const std::invalid_argument& error) {
    if (options.clamped.empty()) {
      throw;
    }
    throw std::invalid_argument(options.with_given_values(error.what()));
  }
}

// ", name='value'" if the option differs from its default, else "".
std::string non_default(const char* name, const std::string& value, const std::string& fallback) {
  if (value == fallback) {
    return "";
  }
  return std::string(", ") + name + "=" + python_repr(py::str(value));
}

// ", name=value" if the int option differs from its default, else "".
std::string non_default(const char* name, std::int64_t value, std::int64_t fallback) {
  if (value == fallback) {
    return "";
  }
  return std::string(", ") + name + "=" + std::to_string(value);
}

// A default topic keeps the lab's repr; options show only where they differ.
std::string topic_repr(const Topic& topic) {
  const kgroups::TopicOptions& options = topic.options();
  const kgroups::TopicOptions defaults;
  return "kgroups.Topic(num_partitions=" + std::to_string(topic.num_partitions()) +
         non_default("partitioner", options.partitioner, defaults.partitioner) +
         non_default("assignor", options.assignor, defaults.assignor) +
         non_default("auto_offset_reset", options.auto_offset_reset, defaults.auto_offset_reset) +
         non_default("share_auto_offset_reset", options.share_auto_offset_reset,
                     defaults.share_auto_offset_reset) +
         non_default("record_lock_duration_ms", options.record_lock_duration_ms,
                     defaults.record_lock_duration_ms) +
         non_default("delivery_count_limit", options.delivery_count_limit,
                     defaults.delivery_count_limit) +
         non_default("partition_max_record_locks", options.partition_max_record_locks,
                     defaults.partition_max_record_locks) +
         ")";
}

}  // namespace

void register_topic(py::module_& module) {
  const kgroups::TopicOptions defaults;
  py::class_<Topic> topic_class(
      module, "Topic",
      R"doc(Topic(num_partitions, *, partitioner="fnv1a", assignor="range", auto_offset_reset="earliest", share_auto_offset_reset="latest", record_lock_duration_ms=30000, delivery_count_limit=5, partition_max_record_locks=2000)

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

Share groups (Kafka's queues, KIP-932; SPEC.md, "Share groups"):
share_auto_offset_reset: where a share group starts on a partition first
  assigned to it: "latest" (the end offset then; Kafka's default) or
  "earliest" (offset 0).
record_lock_duration_ms (int, at least 1; default 30000): how long a
  record acquired by share_poll stays locked to its member, on the
  topic's clock (advance_clock).
delivery_count_limit (int, 2..10; default 5): a record released after
  this many deliveries is archived instead.
partition_max_record_locks (int, 100..10000; default 2000): the most
  records in flight per partition and share group.

A value of the wrong type (str for the first four, int for the others) is a
TypeError; a value that is not one of the choices or in range is a
ValueError naming the option.

Besides the lab's methods, lag(group) gives {partition: end_offset -
committed} and rebalances(group) the group's rebalance history; share_join,
share_leave, share_assignment, share_poll, acknowledge, advance_clock,
clock, share_start_offset and share_partition_state are share groups'.)doc");
  topic_class
      .def(py::init(&make_topic), py::arg("num_partitions"), py::kw_only(),
           py::arg("partitioner") = "fnv1a", py::arg("assignor") = "range",
           py::arg("auto_offset_reset") = "earliest",
           py::arg("share_auto_offset_reset") = defaults.share_auto_offset_reset,
           py::arg("record_lock_duration_ms") = defaults.record_lock_duration_ms,
           py::arg("delivery_count_limit") = defaults.delivery_count_limit,
           py::arg("partition_max_record_locks") = defaults.partition_max_record_locks,
           "__init__(self, num_partitions: int, *, partitioner: str = 'fnv1a', "
           "assignor: str = 'range', auto_offset_reset: str = 'earliest', "
           "share_auto_offset_reset: str = 'latest', record_lock_duration_ms: int = 30000, "
           "delivery_count_limit: int = 5, partition_max_record_locks: int = 2000) -> None\n\n"
           "A new empty topic with partitions 0..num_partitions-1 and the given options\n"
           "(see help(kgroups.Topic)). Raises ValueError if num_partitions < 1 or an\n"
           "option is not one of its choices or out of its range, TypeError if\n"
           "num_partitions is not an int or an option not of its type.")
      .def_property_readonly("num_partitions", &Topic::num_partitions,
                             "The number of partitions (int), fixed at creation.")
      .def("__repr__", &topic_repr, "__repr__(self) -> str");
  add_topic_methods(topic_class);
  add_share_methods(topic_class);
}

}  // namespace kgroups::python
