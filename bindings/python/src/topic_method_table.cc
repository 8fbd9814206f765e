// SPDX-License-Identifier: Apache-2.0
//
// The method table of kgroups.Topic and the module function partition_for (see
// topic_method_table.h): argument binding, the call into topic_methods.cc, and
// the docstrings.
#include "topic_method_table.h"

#include <array>
#include <string>
#include <typeinfo>

#include "errors.h"
#include "integer_args.h"
#include "key_value.h"
#include "kgroups/partitioner.h"
#include "kgroups/topic.h"
#include "method_args.h"
#include "topic_methods.h"
#include "topic_options_arg.h"

namespace py = pybind11;

namespace kgroups::python {
namespace {

constexpr std::array<const char*, 2> kKeyValue{"key", "value"};
constexpr std::array<const char*, 1> kPartition{"partition"};
constexpr std::array<const char*, 2> kGroupConsumer{"group", "consumer_id"};
constexpr std::array<const char*, 3> kPoll{"group", "consumer_id", "max_records"};
constexpr std::array<const char*, 3> kCommit{"group", "consumer_id", "offsets"};
constexpr std::array<const char*, 2> kGroupPartition{"group", "partition"};
constexpr std::array<const char*, 1> kGroup{"group"};
constexpr std::array<const char*, 3> kPartitionFor{"key", "num_partitions", "partitioner"};

PyObject* append_method(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                        PyObject* kwnames) {
  return guarded([&] {
    std::array<PyObject*, 2> slots{};
    bind_arguments("append", kKeyValue, 2, args, nargs, kwnames, slots);
    return append(topic_of(self), slots[0], slots[1]);
  });
}

PyObject* end_offset_method(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                            PyObject* kwnames) {
  return guarded([&] {
    std::array<PyObject*, 1> slots{};
    bind_arguments("end_offset", kPartition, 1, args, nargs, kwnames, slots);
    return end_offset(topic_of(self), slots[0]);
  });
}

PyObject* join_method(PyObject* self, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  return guarded([&] {
    std::array<PyObject*, 2> slots{};
    bind_arguments("join", kGroupConsumer, 2, args, nargs, kwnames, slots);
    return join(topic_of(self), slots[0], slots[1]);
  });
}

PyObject* leave_method(PyObject* self, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  return guarded([&] {
    std::array<PyObject*, 2> slots{};
    bind_arguments("leave", kGroupConsumer, 2, args, nargs, kwnames, slots);
    return leave(topic_of(self), slots[0], slots[1]);
  });
}

PyObject* assignment_method(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                            PyObject* kwnames) {
  return guarded([&] {
    std::array<PyObject*, 2> slots{};
    bind_arguments("assignment", kGroupConsumer, 2, args, nargs, kwnames, slots);
    return assignment(topic_of(self), slots[0], slots[1]);
  });
}

PyObject* poll_method(PyObject* self, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  return guarded([&] {
    static PyObject* const kDefaultMaxRecordsObject = PyLong_FromLong(kgroups::kDefaultMaxRecords);
    std::array<PyObject*, 3> slots{nullptr, nullptr, kDefaultMaxRecordsObject};
    bind_arguments("poll", kPoll, 2, args, nargs, kwnames, slots);
    return poll(topic_of(self), slots[0], slots[1], slots[2]);
  });
}

PyObject* commit_method(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                        PyObject* kwnames) {
  return guarded([&] {
    std::array<PyObject*, 3> slots{nullptr, nullptr, Py_None};
    bind_arguments("commit", kCommit, 2, args, nargs, kwnames, slots);
    return commit(topic_of(self), slots[0], slots[1], slots[2]);
  });
}

PyObject* committed_method(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                           PyObject* kwnames) {
  return guarded([&] {
    std::array<PyObject*, 2> slots{};
    bind_arguments("committed", kGroupPartition, 2, args, nargs, kwnames, slots);
    return committed(topic_of(self), slots[0], slots[1]);
  });
}

PyObject* lag_method(PyObject* self, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  return guarded([&] {
    std::array<PyObject*, 1> slots{};
    bind_arguments("lag", kGroup, 1, args, nargs, kwnames, slots);
    return lag(topic_of(self), slots[0]);
  });
}

PyObject* rebalances_method(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                            PyObject* kwnames) {
  return guarded([&] {
    std::array<PyObject*, 1> slots{};
    bind_arguments("rebalances", kGroup, 1, args, nargs, kwnames, slots);
    return rebalances(topic_of(self), slots[0]);
  });
}

// Types first (key, num_partitions, partitioner), then the values in the same order.
PyObject* partition_for_function(PyObject* /*module*/, PyObject* const* args, Py_ssize_t nargs,
                                 PyObject* kwnames) {
  return guarded([&] {
    static PyObject* const kDefaultPartitioner = PyUnicode_InternFromString("fnv1a");
    std::array<PyObject*, 3> slots{nullptr, nullptr, kDefaultPartitioner};
    bind_arguments("partition_for", kPartitionFor, 2, args, nargs, kwnames, slots);
    require_key_value(slots[0], "key");
    require_int(slots[1], "num_partitions");
    const std::string partitioner = partitioner_arg(slots[2]);
    const int num_partitions = num_partitions_arg(slots[1], "partition_for");
    const int partition =
        kgroups::partition_for(key_value_view(slots[0]).bytes, num_partitions, partitioner);
    return py::reinterpret_steal<py::object>(PyLong_FromLong(partition));
  });
}

template <auto kFunction>
PyMethodDef method(const char* name, const char* doc) noexcept {
  return fastcall_method<kFunction>(name, doc);
}

// The first lines of each docstring are its __text_signature__ (up to "--").
PyMethodDef topic_methods[] = {
    method<append_method>("append", R"doc(append($self, /, key, value)
--

Write a record; return (partition, offset), a tuple of two ints.

key and value are str or bytes. The record goes to partition
p = partition_for(key, num_partitions, partitioner) at offset end_offset(p),
with the topic's partitioner. Both are
copied; poll returns them with the type they had (str or bytes).
Raises TypeError for any other type: serialize first, e.g. json.dumps.)doc"),
    method<end_offset_method>("end_offset", R"doc(end_offset($self, /, partition)
--

The offset (int) the next record appended to the partition will get, which
is its number of records. Raises IndexError for a partition outside
0..num_partitions-1.)doc"),
    method<join_method>("join", R"doc(join($self, /, group, consumer_id)
--

Add the consumer (str) to the group (str), creating the group, and
rebalance it: partitions are split over the members by the topic's assignor
(range by default). Eager assignors restart every member's positions from
the group's committed offsets; cooperative-sticky restarts only partitions
that move. A partition the group never committed starts where
auto_offset_reset says. Does nothing if the consumer is already a member.
Returns None.)doc"),
    method<leave_method>("leave", R"doc(leave($self, /, group, consumer_id)
--

Remove the consumer from the group (a clean leave or a crash, the same) and
rebalance it. Does nothing if it is not a member. The group keeps its
committed offsets. Returns None.)doc"),
    method<assignment_method>("assignment", R"doc(assignment($self, /, group, consumer_id)
--

The consumer's partitions, a list of ints in ascending order; [] for an idle
consumer, a non-member or an unknown group.)doc"),
    method<poll_method>("poll", R"doc(poll($self, /, group, consumer_id, max_records=100)
--

Up to max_records records from the consumer's partitions: a list of dicts
with exactly the keys "partition", "offset", "key" and "value", in ascending
partition order and offset order within a partition, each from the
consumer's position on. Advances those positions; commits nothing.
[] for a consumer with no partitions or max_records == 0.
Raises ValueError if max_records < 0. Under auto_offset_reset="none", raises
NoOffsetError (its .partitions names them) if some of the consumer's
partitions have no position and the group no committed offset for them;
then nothing is returned and no position moves.)doc"),
    method<commit_method>("commit", R"doc(commit($self, /, group, consumer_id, offsets=None)
--

Store committed offsets for the group; returns None. Committing never moves
a position.

Without offsets: the consumer's position on each of its partitions becomes
the group's committed offset (an idle consumer or non-member commits nothing,
nor does a partition without a position under auto_offset_reset="none").

With offsets, a mapping {partition: offset} such as a dict: every partition
named must be assigned to this consumer now, else NotAssignedError; every
offset must be in 0..end_offset(partition), else ValueError; either way
nothing is committed. An empty mapping commits nothing.)doc"),
    method<committed_method>("committed", R"doc(committed($self, /, group, partition)
--

The group's committed offset (int) for the partition; 0 if it has none (also
for a group that never existed). Raises IndexError for a partition outside
0..num_partitions-1.)doc"),
    method<lag_method>("lag", R"doc(lag($self, /, group)
--

The group's lag: a dict {partition: end_offset(partition) -
committed(group, partition)} with every partition of the topic, ascending.
A group that never existed lags by end_offset everywhere.)doc"),
    method<rebalances_method>("rebalances", R"doc(rebalances($self, /, group)
--

The group's rebalance history, oldest first (the most recent 1,000): a list
of dicts, one per join or leave that changed the membership, with exactly
the keys
  "generation"  int, 1 for the group's first rebalance, then counting up
  "cause"       "join" or "leave"
  "consumer"    the consumer id that joined or left
  "members"     the new generation's members, sorted by id: dicts with
                exactly the keys "id", "assignment" (its partitions after
                the rebalance), "revoked" and "assigned".
Eager assignors revoke everything a member owned and assign everything it
now owns; cooperative-sticky revokes only what moved away from the member
and assigns only what is new to it. Partition lists are ascending.
[] for a group that never existed.)doc"),
    {nullptr, nullptr, 0, nullptr},
};

PyMethodDef partition_for_def = method<partition_for_function>(
    "partition_for", R"doc(partition_for(key, num_partitions, partitioner='fnv1a')
--

The partition (int) a key lands on, with the given partitioner, over the
key's bytes (UTF-8 for a str):
  "fnv1a"    32-bit FNV-1a, modulo num_partitions (the lab's default).
  "murmur2"  Kafka's default partitioner: murmur2 & 0x7fffffff, modulo
             num_partitions.
key is str or bytes, partitioner a str. Raises ValueError if
num_partitions < 1 or the partitioner is not one of those, TypeError for
other types.)doc");

}  // namespace

// py::cast would look the C++ type up in a hash map on every call (a quarter of a small
// call's time); the type_info is looked up once instead.
kgroups::Topic& topic_of(PyObject* self) {
  static const py::detail::type_info* const kTopicType =
      py::detail::get_type_info(typeid(kgroups::Topic));
  auto* instance = reinterpret_cast<py::detail::instance*>(self);
  const py::detail::value_and_holder holder =
      instance->get_value_and_holder(kTopicType, /*throw_if_missing=*/false);
  if (!holder || !holder.holder_constructed()) {
    throw py::type_error("kgroups.Topic.__init__() was not called on this object");
  }
  return *static_cast<kgroups::Topic*>(holder.value_ptr());
}

void add_topic_methods(py::handle topic_class) { add_methods(topic_class, topic_methods); }

void add_methods(py::handle topic_class, PyMethodDef* methods) {
  auto* type = reinterpret_cast<PyTypeObject*>(topic_class.ptr());
  for (PyMethodDef* def = methods; def->ml_name != nullptr; ++def) {
    auto descriptor = py::reinterpret_steal<py::object>(PyDescr_NewMethod(type, def));
    if (!descriptor) {
      throw py::error_already_set();
    }
    topic_class.attr(def->ml_name) = descriptor;
  }
}

void add_partition_for(py::module_& module) {
  auto function = py::reinterpret_steal<py::object>(
      PyCFunction_NewEx(&partition_for_def, nullptr, module.attr("__name__").ptr()));
  if (!function) {
    throw py::error_already_set();
  }
  module.add_object("partition_for", function);
}

}  // namespace kgroups::python
