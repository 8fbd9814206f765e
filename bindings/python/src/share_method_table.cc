// SPDX-License-Identifier: Apache-2.0
//
// The share-group method table of kgroups.Topic (see share_method_table.h): argument
// binding, the call into share_methods.cc, and the docstrings.
#include "share_method_table.h"

#include <array>

#include "errors.h"
#include "kgroups/topic.h"
#include "method_args.h"
#include "share_methods.h"
#include "topic_method_table.h"

namespace py = pybind11;

namespace kgroups::python {
namespace {

constexpr std::array<const char*, 2> kGroupMember{"group", "member_id"};
constexpr std::array<const char*, 3> kSharePoll{"group", "member_id", "max_records"};
constexpr std::array<const char*, 4> kAcknowledge{"group", "member_id", "records", "type"};
constexpr std::array<const char*, 1> kMs{"ms"};
constexpr std::array<const char*, 2> kGroupPartition{"group", "partition"};

// A method of (group, member_id) that returns what `Call` returns.
template <auto kCall>
PyObject* group_member_method(const char* name, PyObject* self, PyObject* const* args,
                              Py_ssize_t nargs, PyObject* kwnames) {
  return guarded([&] {
    std::array<PyObject*, 2> slots{};
    bind_arguments(name, kGroupMember, 2, args, nargs, kwnames, slots);
    return kCall(topic_of(self), slots[0], slots[1]);
  });
}

PyObject* share_join_method(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                            PyObject* kwnames) {
  return group_member_method<&share_join>("share_join", self, args, nargs, kwnames);
}

PyObject* share_leave_method(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                             PyObject* kwnames) {
  return group_member_method<&share_leave>("share_leave", self, args, nargs, kwnames);
}

PyObject* share_assignment_method(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                                  PyObject* kwnames) {
  return group_member_method<&share_assignment>("share_assignment", self, args, nargs, kwnames);
}

PyObject* share_poll_method(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                            PyObject* kwnames) {
  return guarded([&] {
    static PyObject* const kDefaultMaxRecordsObject = PyLong_FromLong(kgroups::kDefaultMaxRecords);
    std::array<PyObject*, 3> slots{nullptr, nullptr, kDefaultMaxRecordsObject};
    bind_arguments("share_poll", kSharePoll, 2, args, nargs, kwnames, slots);
    return share_poll(topic_of(self), slots[0], slots[1], slots[2]);
  });
}

PyObject* acknowledge_method(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                             PyObject* kwnames) {
  return guarded([&] {
    std::array<PyObject*, 4> slots{};
    bind_arguments("acknowledge", kAcknowledge, 2, args, nargs, kwnames, slots);
    return acknowledge(topic_of(self), slots[0], slots[1], slots[2], slots[3]);
  });
}

PyObject* advance_clock_method(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                               PyObject* kwnames) {
  return guarded([&] {
    std::array<PyObject*, 1> slots{};
    bind_arguments("advance_clock", kMs, 1, args, nargs, kwnames, slots);
    return advance_clock(topic_of(self), slots[0]);
  });
}

PyObject* clock_method(PyObject* self, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  return guarded([&] {
    bind_arguments("clock", {}, 0, args, nargs, kwnames, {});
    return clock(topic_of(self));
  });
}

PyObject* share_start_offset_method(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                                    PyObject* kwnames) {
  return guarded([&] {
    std::array<PyObject*, 2> slots{};
    bind_arguments("share_start_offset", kGroupPartition, 2, args, nargs, kwnames, slots);
    return share_start_offset(topic_of(self), slots[0], slots[1]);
  });
}

PyObject* share_partition_state_method(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                                       PyObject* kwnames) {
  return guarded([&] {
    std::array<PyObject*, 2> slots{};
    bind_arguments("share_partition_state", kGroupPartition, 2, args, nargs, kwnames, slots);
    return share_partition_state(topic_of(self), slots[0], slots[1]);
  });
}

// The first lines of each docstring are its __text_signature__ (up to "--").
PyMethodDef share_methods[] = {
    fastcall_method<share_join_method>("share_join", R"doc(share_join($self, /, group, member_id)
--

Add the member (str) to the share group (str), creating the group, and
reassign the group with Kafka's simple share assignor: several members may
share one partition, and a member's partitions never shrink while it stays.
A partition assigned to the group for the first time starts where
share_auto_offset_reset says ("latest" by default). Does nothing if the
member is already in the group. Raises ValueError if a consumer group has
this name. Returns None.)doc"),
    fastcall_method<share_leave_method>("share_leave",
                                        R"doc(share_leave($self, /, group, member_id)
--

Remove the member from the share group (a clean leave or a crash, the same)
and release every record it holds: available to the others with a higher
delivery count, or archived at delivery_count_limit. Records it acknowledged
stay done. Does nothing for a non-member. Returns None.)doc"),
    fastcall_method<share_assignment_method>("share_assignment",
                                             R"doc(share_assignment($self, /, group, member_id)
--

The member's partitions, a list of ints in ascending order (other members
may have some of them too); [] for a non-member or an unknown group.)doc"),
    fastcall_method<share_poll_method>("share_poll",
                                       R"doc(share_poll($self, /, group, member_id, max_records=100)
--

Acquire up to max_records records for the member and return them: a list of
dicts with exactly the keys "partition", "offset", "key", "value" (as poll
returns them) and "delivery_count" (1 on the first delivery). Partitions
ascending; on each, released records first, oldest first, then new ones.
Each record returned is locked to the member until clock() +
record_lock_duration_ms; no other member acquires it meanwhile. Commits
nothing. Raises ValueError if max_records < 0, then if the member is not in
the group.)doc"),
    fastcall_method<acknowledge_method>(
        "acknowledge", R"doc(acknowledge($self, /, group, member_id, records=None, type=None)
--

Acknowledge records the member holds; returns None. type is "accept"
(processed: never delivered again), "release" (give it back: delivered
again, with a higher delivery count) or "reject" (unprocessable: archived).

acknowledge(group, member_id, records, type): records is an iterable of
(partition, offset) pairs, e.g. [(r["partition"], r["offset"]) for r in
batch]. Every one must be held by the member now, else NotAcquiredError
(its .partition and .offset name the first that is not) and nothing is
acknowledged. An empty list does nothing.

acknowledge(group, member_id, type) (or records=None): every record the
member holds now; nothing for a member holding nothing or a non-member.

Raises ValueError for another type str, TypeError for other types.)doc"),
    fastcall_method<advance_clock_method>("advance_clock", R"doc(advance_clock($self, /, ms)
--

Move the topic's clock (milliseconds, starting at 0) forward by ms; every
acquisition lock that runs out by then releases its record. Returns None.
Raises ValueError if ms < 0 or the clock would pass the largest value at
which a lock deadline still fits in 64 bits.)doc"),
    fastcall_method<clock_method>("clock", R"doc(clock($self, /)
--

The topic's clock in milliseconds (int): 0 at creation, moved only by
advance_clock.)doc"),
    fastcall_method<share_start_offset_method>("share_start_offset",
                                               R"doc(share_start_offset($self, /, group, partition)
--

The share-partition start offset (int): every record below it is accepted,
rejected or archived. For a partition the group was never assigned (or an
unknown group): where share_auto_offset_reset would start it now. Raises
IndexError for a partition outside 0..num_partitions-1.)doc"),
    fastcall_method<share_partition_state_method>(
        "share_partition_state", R"doc(share_partition_state($self, /, group, partition)
--

The share-partition's state: a dict with exactly the int values
  "start_offset"  as share_start_offset
  "end_offset"    the first offset never acquired
  "available", "acquired", "acknowledged", "archived"
                  the records in flight by state (at or above the start offset)
  "deliveries", "redeliveries"
                  totals since the partition was first assigned to the group.
Raises IndexError for a partition outside 0..num_partitions-1.)doc"),
    {nullptr, nullptr, 0, nullptr},
};

}  // namespace

void add_share_methods(py::handle topic_class) { add_methods(topic_class, share_methods); }

}  // namespace kgroups::python
