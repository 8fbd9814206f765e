// SPDX-License-Identifier: Apache-2.0
//
// kgroups.Topic (see topic_binding.h). Arguments arrive as py::handle so that every
// type error is ours (TypeError with a message naming the argument) and is raised
// before the engine reads any state, as SPEC.md's validation order requires.
// Signatures are written at the top of each docstring for help().
#include "topic_binding.h"

#include <cstddef>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "integer_args.h"
#include "key_value.h"
#include "kgroups/errors.h"
#include "kgroups/topic.h"
#include "offsets_arg.h"
#include "records.h"
#include "text_args.h"

namespace py = pybind11;

namespace kgroups::python {
namespace {

using kgroups::Topic;

// Appends at least this large copy their bytes with the GIL released.
constexpr std::size_t kReleaseGilFromBytes = 64 * 1024;

std::string quoted(std::string_view text) { return "\"" + std::string(text) + "\""; }

py::tuple append(Topic& topic, py::handle key, py::handle value) {
  require_key_value(key, "key");
  require_key_value(value, "value");
  const KeyValueView key_view = key_value_view(key);
  const KeyValueView value_view = key_value_view(value);
  std::pair<int, std::int64_t> placed;
  if (key_view.bytes.size() + value_view.bytes.size() >= kReleaseGilFromBytes) {
    const py::gil_scoped_release release;
    placed = topic.append(key_view.bytes, value_view.bytes, key_view.encoding, value_view.encoding);
  } else {
    placed = topic.append(key_view.bytes, value_view.bytes, key_view.encoding, value_view.encoding);
  }
  PyObject* result = PyTuple_New(2);
  if (result == nullptr) {
    throw py::error_already_set();
  }
  py::tuple tuple = py::reinterpret_steal<py::tuple>(result);
  PyObject* partition = PyLong_FromLong(placed.first);
  PyObject* offset = partition == nullptr ? nullptr : PyLong_FromLongLong(placed.second);
  if (offset == nullptr) {
    Py_XDECREF(partition);
    throw py::error_already_set();
  }
  PyTuple_SET_ITEM(result, 0, partition);
  PyTuple_SET_ITEM(result, 1, offset);
  return tuple;
}

std::int64_t end_offset(const Topic& topic, py::handle partition) {
  return topic.end_offset(partition_arg(topic, partition, "end_offset"));
}

void join(Topic& topic, py::handle group, py::handle consumer_id) {
  require_text(group, "group");
  require_text(consumer_id, "consumer_id");
  const std::string_view group_bytes = utf8_view(group);
  const std::string_view consumer_bytes = utf8_view(consumer_id);
  const py::gil_scoped_release release;
  topic.join(group_bytes, consumer_bytes);
}

void leave(Topic& topic, py::handle group, py::handle consumer_id) {
  require_text(group, "group");
  require_text(consumer_id, "consumer_id");
  const std::string_view group_bytes = utf8_view(group);
  const std::string_view consumer_bytes = utf8_view(consumer_id);
  const py::gil_scoped_release release;
  topic.leave(group_bytes, consumer_bytes);
}

py::list assignment(const Topic& topic, py::handle group, py::handle consumer_id) {
  require_text(group, "group");
  require_text(consumer_id, "consumer_id");
  const std::vector<int> partitions = topic.assignment(utf8_view(group), utf8_view(consumer_id));
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

py::list poll(Topic& topic, py::handle group, py::handle consumer_id, py::handle max_records) {
  require_text(group, "group");
  require_text(consumer_id, "consumer_id");
  require_int(max_records, "max_records");
  const int limit = max_records_arg(max_records);
  const std::string_view group_bytes = utf8_view(group);
  const std::string_view consumer_bytes = utf8_view(consumer_id);
  std::vector<kgroups::Record> records;
  {
    const py::gil_scoped_release release;
    records = topic.poll(group_bytes, consumer_bytes, limit);
  }
  return records_to_python(records);
}

void commit(Topic& topic, py::handle group, py::handle consumer_id, py::handle offsets) {
  require_text(group, "group");
  require_text(consumer_id, "consumer_id");
  const bool has_offsets = !offsets.is_none();
  if (has_offsets && !is_mapping(offsets)) {
    throw py::type_error(
        std::string("offsets must be a mapping {partition: offset} such as a dict, "
                    "or None, not ") +
        Py_TYPE(offsets.ptr())->tp_name);
  }
  const OffsetsArg arg = has_offsets ? offsets_arg(offsets) : OffsetsArg{};
  const std::string_view group_bytes = utf8_view(group);
  const std::string_view consumer_bytes = utf8_view(consumer_id);
  if (!has_offsets) {
    topic.commit(group_bytes, consumer_bytes);
    return;
  }
  if (arg.unrepresentable_partition) {
    throw kgroups::NotAssignedError(
        "commit: partition " + python_repr(arg.unrepresentable_partition) +
            " is not assigned to consumer " + quoted(consumer_bytes) + " in group " +
            quoted(group_bytes) + " (this topic has partitions 0.." +
            std::to_string(topic.num_partitions() - 1) +
            "); commit only the partitions assigned to this consumer now",
        -1);
  }
  try {
    topic.commit(group_bytes, consumer_bytes, arg.offsets);
  } catch (const std::invalid_argument&) {
    if (!arg.unrepresentable_offset) {
      throw;
    }
    const int partition = arg.unrepresentable_offset_partition;
    throw std::invalid_argument("commit: offset " + python_repr(arg.unrepresentable_offset) +
                                " for partition " + std::to_string(partition) + " is outside 0.." +
                                std::to_string(topic.end_offset(partition)) +
                                " (0 up to the partition's end offset)");
  }
}

std::int64_t committed(const Topic& topic, py::handle group, py::handle partition) {
  require_text(group, "group");
  require_int(partition, "partition");
  const int checked_partition = partition_arg(topic, partition, "committed");
  return topic.committed(utf8_view(group), checked_partition);
}

std::unique_ptr<Topic> make_topic(py::handle num_partitions) {
  return std::make_unique<Topic>(num_partitions_arg(num_partitions, "Topic"));
}

std::string topic_repr(const Topic& topic) {
  return "kgroups.Topic(num_partitions=" + std::to_string(topic.num_partitions()) + ")";
}

}  // namespace

void register_topic(py::module_& module) {
  py::class_<Topic>(module, "Topic", R"doc(Topic(num_partitions: int)

One topic of Kafka's consumer-group model: num_partitions append-only
partitions, and consumer groups that split them with the range assignor,
track positions and committed offsets, and rebalance eagerly on every join
and leave (see SPEC.md).

Raises ValueError if num_partitions < 1, TypeError if it is not an int.
A Topic is safe to use from several threads at once; every call is atomic.
)doc")
      .def(py::init(&make_topic), py::arg("num_partitions"),
           "__init__(self, num_partitions: int) -> None\n\n"
           "A new empty topic with partitions 0..num_partitions-1.\n"
           "Raises ValueError if num_partitions < 1.")
      .def_property_readonly("num_partitions", &Topic::num_partitions,
                             "The number of partitions (int), fixed at creation.")
      .def("append", &append, py::arg("key"), py::arg("value"),
           R"doc(append(self, key: str | bytes, value: str | bytes) -> tuple[int, int]

Writes the record to partition p = partition_for(key, num_partitions) at
offset end_offset(p) and returns (p, offset). The key and value are copied;
poll returns them with the type they had (str or bytes).
Raises TypeError for any other type: serialize first, e.g. json.dumps.)doc")
      .def("end_offset", &end_offset, py::arg("partition"),
           R"doc(end_offset(self, partition: int) -> int

The offset the next record appended to the partition will get (its number
of records). Raises IndexError for a partition outside 0..num_partitions-1.)doc")
      .def("join", &join, py::arg("group"), py::arg("consumer_id"),
           R"doc(join(self, group: str, consumer_id: str) -> None

Adds the consumer to the group (creating the group) and rebalances it: every
member's positions restart from the group's committed offsets. Does nothing
if the consumer is already a member.)doc")
      .def("leave", &leave, py::arg("group"), py::arg("consumer_id"),
           R"doc(leave(self, group: str, consumer_id: str) -> None

Removes the consumer from the group (a clean leave or a crash) and
rebalances it. Does nothing if it is not a member. The group keeps its
committed offsets.)doc")
      .def("assignment", &assignment, py::arg("group"), py::arg("consumer_id"),
           R"doc(assignment(self, group: str, consumer_id: str) -> list[int]

The consumer's partitions in ascending order; [] for an idle consumer, a
non-member or an unknown group.)doc")
      .def("poll", &poll, py::arg("group"), py::arg("consumer_id"), py::arg("max_records") = 100,
           R"doc(poll(self, group: str, consumer_id: str, max_records: int = 100) -> list[dict]

Up to max_records records from the consumer's partitions, in ascending
partition order and offset order within a partition, each a dict with
exactly the keys "partition", "offset", "key" and "value". Advances the
consumer's positions past them; commits nothing. [] for a consumer with no
partitions or max_records == 0. Raises ValueError if max_records < 0.)doc")
      .def(
          "commit", &commit, py::arg("group"), py::arg("consumer_id"),
          py::arg("offsets") = py::none(),
          R"doc(commit(self, group: str, consumer_id: str, offsets: Mapping[int, int] | None = None) -> None

Without offsets: stores the consumer's position on each of its partitions
as the group's committed offset (an idle consumer or non-member commits
nothing).

With offsets ({partition: offset}, any mapping): stores them as the group's
committed offsets. Raises NotAssignedError if a partition named is not
assigned to this consumer now, then ValueError if an offset is outside
0..end_offset(partition); either way nothing is committed. An empty mapping
commits nothing. Committing never moves a position.)doc")
      .def("committed", &committed, py::arg("group"), py::arg("partition"),
           R"doc(committed(self, group: str, partition: int) -> int

The group's committed offset for the partition; 0 if it has none (also for
a group that never existed). Raises IndexError for a partition outside
0..num_partitions-1.)doc")
      .def("__repr__", &topic_repr);
}

}  // namespace kgroups::python
