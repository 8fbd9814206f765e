// SPDX-License-Identifier: Apache-2.0
//
// Bodies of the share-group methods of kgroups.Topic (see share_methods.h).
#include "share_methods.h"

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "errors.h"
#include "integer_args.h"
#include "kgroups/errors.h"
#include "rebalances.h"
#include "records.h"
#include "share_args.h"
#include "text_args.h"

namespace py = pybind11;

namespace kgroups::python {
namespace {

using kgroups::Topic;

py::object new_int(long long value) {
  auto integer = py::reinterpret_steal<py::object>(PyLong_FromLongLong(value));
  if (!integer) {
    throw py::error_already_set();
  }
  return integer;
}

struct GroupAndMember {
  std::string_view group;   // UTF-8, views the str argument
  std::string_view member;  // UTF-8, views the str argument
};

GroupAndMember group_and_member(py::handle group, py::handle member_id) {
  require_text(group, "group");
  require_text(member_id, "member_id");
  return {utf8_view(group), utf8_view(member_id)};
}

// The engine's NotAcquiredError for a record whose numbers the binding clamped, raised
// with the numbers the caller gave; any other is rethrown as it is.
[[noreturn]] void rethrow_not_acquired(const kgroups::NotAcquiredError& error,
                                       const AcknowledgeRecordsArg& arg) {
  const std::pair<int, std::int64_t> named{error.partition(), error.offset()};
  for (const auto& [index, given] : arg.clamped) {
    if (arg.records[index] != named) {
      continue;
    }
    const py::handle partition = PyTuple_GET_ITEM(given.ptr(), 0);
    const py::handle offset = PyTuple_GET_ITEM(given.ptr(), 1);
    std::string message = error.what();
    const std::string engine_numbers =
        "partition " + std::to_string(named.first) + " offset " + std::to_string(named.second);
    const std::size_t at = message.find(engine_numbers);
    if (at != std::string::npos) {
      message.replace(at, engine_numbers.size(),
                      "partition " + python_repr(partition) + " offset " + python_repr(offset));
    }
    raise_not_acquired_error(message, partition, offset);
  }
  throw;
}

}  // namespace

py::object share_join(Topic& topic, py::handle group, py::handle member_id) {
  const GroupAndMember names = group_and_member(group, member_id);
  {
    const py::gil_scoped_release release;
    topic.share_join(names.group, names.member);
  }
  return py::none();
}

py::object share_leave(Topic& topic, py::handle group, py::handle member_id) {
  const GroupAndMember names = group_and_member(group, member_id);
  {
    const py::gil_scoped_release release;
    topic.share_leave(names.group, names.member);
  }
  return py::none();
}

py::object share_assignment(const Topic& topic, py::handle group, py::handle member_id) {
  const GroupAndMember names = group_and_member(group, member_id);
  return partitions_to_python(topic.share_assignment(names.group, names.member));
}

py::object share_poll(Topic& topic, py::handle group, py::handle member_id,
                      py::handle max_records) {
  require_text(group, "group");
  require_text(member_id, "member_id");
  require_int(max_records, "max_records");
  const int limit = max_records_arg(max_records);
  const GroupAndMember names = group_and_member(group, member_id);
  std::vector<kgroups::ShareRecord> records;
  {
    const py::gil_scoped_release release;
    records = topic.share_poll(names.group, names.member, limit);
  }
  return share_records_to_python(records);
}

py::object acknowledge(Topic& topic, py::handle group, py::handle member_id, py::handle records,
                       py::handle type) {
  require_text(group, "group");
  require_text(member_id, "member_id");
  if (!type) {
    if (!records || !is_acknowledge_type(records)) {
      throw py::type_error(
          "acknowledge() missing required argument 'type': call acknowledge(group, member_id, "
          "records, type) or acknowledge(group, member_id, type)");
    }
    type = records;
    records = py::handle();
  }
  require_acknowledge_type(type);
  const bool implicit = !records || records.is_none();
  AcknowledgeRecordsArg arg;
  if (!implicit) {
    arg = acknowledge_records_arg(records);
  }
  const kgroups::AcknowledgeType checked_type = acknowledge_type_arg(type);
  const GroupAndMember names = group_and_member(group, member_id);
  if (implicit) {
    topic.acknowledge(names.group, names.member, checked_type);
    return py::none();
  }
  try {
    topic.acknowledge(names.group, names.member, arg.records, checked_type);
  } catch (const kgroups::NotAcquiredError& error) {
    rethrow_not_acquired(error, arg);
  }
  return py::none();
}

py::object advance_clock(Topic& topic, py::handle ms) {
  const Int64Arg arg = int64_arg(ms, "ms");
  if (arg.overflow < 0) {
    throw std::invalid_argument("advance_clock: milliseconds must be 0 or more, got " +
                                python_repr(ms));
  }
  // Beyond INT64_MAX the engine refuses as it refuses INT64_MAX: the clock would pass its limit.
  topic.advance_clock(arg.overflow > 0 ? std::numeric_limits<std::int64_t>::max() : arg.value);
  return py::none();
}

py::object clock(const Topic& topic) { return new_int(topic.clock()); }

py::object share_start_offset(const Topic& topic, py::handle group, py::handle partition) {
  require_text(group, "group");
  require_int(partition, "partition");
  const int checked_partition = partition_arg(topic, partition, "share_start_offset");
  return new_int(topic.share_start_offset(utf8_view(group), checked_partition));
}

py::object share_partition_state(const Topic& topic, py::handle group, py::handle partition) {
  require_text(group, "group");
  require_int(partition, "partition");
  const int checked_partition = partition_arg(topic, partition, "share_partition_state");
  const Topic::SharePartitionState state =
      topic.share_partition_state(utf8_view(group), checked_partition);
  py::dict dict;
  const std::pair<const char*, std::int64_t> fields[] = {
      {"start_offset", state.start_offset}, {"end_offset", state.end_offset},
      {"available", state.available},       {"acquired", state.acquired},
      {"acknowledged", state.acknowledged}, {"archived", state.archived},
      {"deliveries", state.deliveries},     {"redeliveries", state.redeliveries},
  };
  for (const auto& [name, value] : fields) {
    dict[name] = new_int(value);
  }
  return dict;
}

}  // namespace kgroups::python
