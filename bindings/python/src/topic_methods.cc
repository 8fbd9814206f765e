// SPDX-License-Identifier: Apache-2.0
//
// Bodies of the kgroups.Topic methods (see topic_methods.h).
#include "topic_methods.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "integer_args.h"
#include "key_value.h"
#include "kgroups/errors.h"
#include "offsets_arg.h"
#include "rebalances.h"
#include "records.h"
#include "text_args.h"

namespace py = pybind11;

namespace kgroups::python {
namespace {

using kgroups::Topic;

// Appends at least this large copy their bytes with the GIL released; below it,
// releasing and taking back the GIL costs more than the copy.
constexpr std::size_t kReleaseGilFromBytes = std::size_t{64} * 1024;

std::string quoted(std::string_view text) { return "\"" + std::string(text) + "\""; }

py::object new_int(long long value) {
  return py::reinterpret_steal<py::object>(PyLong_FromLongLong(value));
}

struct GroupAndConsumer {
  std::string_view group;     // UTF-8, views the str argument
  std::string_view consumer;  // UTF-8, views the str argument
};

GroupAndConsumer group_and_consumer(py::handle group, py::handle consumer_id) {
  return {utf8_view(group), utf8_view(consumer_id)};
}

void require_group_and_consumer(py::handle group, py::handle consumer_id) {
  require_text(group, "group");
  require_text(consumer_id, "consumer_id");
}

}  // namespace

py::object append(Topic& topic, py::handle key, py::handle value) {
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
  py::object partition = new_int(placed.first);
  py::object offset = new_int(placed.second);
  if (!partition || !offset) {
    throw py::error_already_set();
  }
  PyObject* tuple = PyTuple_Pack(2, partition.ptr(), offset.ptr());
  if (tuple == nullptr) {
    throw py::error_already_set();
  }
  return py::reinterpret_steal<py::object>(tuple);
}

py::object end_offset(const Topic& topic, py::handle partition) {
  return new_int(topic.end_offset(partition_arg(topic, partition, "end_offset")));
}

py::object join(Topic& topic, py::handle group, py::handle consumer_id) {
  require_group_and_consumer(group, consumer_id);
  const GroupAndConsumer names = group_and_consumer(group, consumer_id);
  {
    const py::gil_scoped_release release;
    topic.join(names.group, names.consumer);
  }
  return py::none();
}

py::object leave(Topic& topic, py::handle group, py::handle consumer_id) {
  require_group_and_consumer(group, consumer_id);
  const GroupAndConsumer names = group_and_consumer(group, consumer_id);
  {
    const py::gil_scoped_release release;
    topic.leave(names.group, names.consumer);
  }
  return py::none();
}

py::object assignment(const Topic& topic, py::handle group, py::handle consumer_id) {
  require_group_and_consumer(group, consumer_id);
  const GroupAndConsumer names = group_and_consumer(group, consumer_id);
  return partitions_to_python(topic.assignment(names.group, names.consumer));
}

py::object poll(Topic& topic, py::handle group, py::handle consumer_id, py::handle max_records) {
  require_group_and_consumer(group, consumer_id);
  const int limit = max_records_arg(max_records);
  const GroupAndConsumer names = group_and_consumer(group, consumer_id);
  std::vector<kgroups::Record> records;
  {
    const py::gil_scoped_release release;
    records = topic.poll(names.group, names.consumer, limit);
  }
  return records_to_python(records);
}

py::object commit(Topic& topic, py::handle group, py::handle consumer_id, py::handle offsets) {
  require_group_and_consumer(group, consumer_id);
  if (offsets.is_none()) {
    const GroupAndConsumer names = group_and_consumer(group, consumer_id);
    topic.commit(names.group, names.consumer);
    return py::none();
  }
  if (!is_mapping(offsets)) {
    throw py::type_error(
        std::string("offsets must be a mapping {partition: offset} such as a dict, "
                    "or None, not ") +
        Py_TYPE(offsets.ptr())->tp_name);
  }
  const OffsetsArg arg = offsets_arg(offsets);
  const GroupAndConsumer names = group_and_consumer(group, consumer_id);
  if (arg.unrepresentable_partition) {
    // No partition number outside C++ int exists, so it is never assigned.
    throw kgroups::NotAssignedError(
        "commit: partition " + python_repr(arg.unrepresentable_partition) +
            " is not assigned to consumer " + quoted(names.consumer) + " in group " +
            quoted(names.group) + " (this topic has partitions 0.." +
            std::to_string(topic.num_partitions() - 1) +
            "); commit only the partitions assigned to this consumer now",
        -1);
  }
  try {
    topic.commit(names.group, names.consumer, arg.offsets);
  } catch (const std::invalid_argument&) {
    if (!arg.unrepresentable_offset) {
      throw;
    }
    // The engine saw INT64_MIN/MAX in place of this offset: name the real one.
    const int partition = arg.unrepresentable_offset_partition;
    throw std::invalid_argument("commit: offset " + python_repr(arg.unrepresentable_offset) +
                                " for partition " + std::to_string(partition) + " is outside 0.." +
                                std::to_string(topic.end_offset(partition)) +
                                " (0 up to the partition's end offset)");
  }
  return py::none();
}

py::object committed(const Topic& topic, py::handle group, py::handle partition) {
  require_text(group, "group");
  require_int(partition, "partition");
  const int checked_partition = partition_arg(topic, partition, "committed");
  return new_int(topic.committed(utf8_view(group), checked_partition));
}

py::object lag(const Topic& topic, py::handle group) {
  require_text(group, "group");
  const std::map<int, std::int64_t> lags = topic.lag(utf8_view(group));
  py::dict dict;
  for (const auto& [partition, lag_of_partition] : lags) {
    py::object key = new_int(partition);
    py::object value = new_int(lag_of_partition);
    if (!key || !value || PyDict_SetItem(dict.ptr(), key.ptr(), value.ptr()) != 0) {
      throw py::error_already_set();
    }
  }
  return dict;
}

py::object rebalances(const Topic& topic, py::handle group) {
  require_text(group, "group");
  return rebalances_to_python(topic.rebalances(utf8_view(group)));
}

}  // namespace kgroups::python
