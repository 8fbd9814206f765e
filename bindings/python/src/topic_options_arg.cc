// SPDX-License-Identifier: Apache-2.0
//
// str and int -> TopicOptions for kgroups.Topic(...) (see topic_options_arg.h).
#include "topic_options_arg.h"

#include <climits>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

#include "integer_args.h"
#include "text_args.h"

namespace py = pybind11;

namespace kgroups::python {
namespace {

std::string option_text(py::handle object, const char* what) {
  require_text(object, what);
  return std::string(utf8_view(object));
}

void require_int_option(py::handle object, const char* what) {
  if (PyBool_Check(object.ptr())) {
    throw py::type_error(std::string(what) + " must be an int, not bool");
  }
  require_int(object, what);
}

// The int option's value, clamped to [min, max] (noted in `arg`).
std::int64_t int_option(py::handle object, const char* what, std::int64_t min, std::int64_t max,
                        TopicOptionsArg& arg) {
  const Int64Arg read = int64_arg(object, what);
  std::int64_t value = read.value;
  if (read.overflow < 0 || (read.overflow == 0 && read.value < min)) {
    value = min;
  } else if (read.overflow > 0 || read.value > max) {
    value = max;
  } else {
    return value;
  }
  arg.clamped.push_back({what, value, python_repr(object), ""});
  return value;
}

}  // namespace

TopicOptionsArg topic_options_arg(const TopicOptionArgs& args) {
  require_text(args.partitioner, "partitioner");
  require_text(args.assignor, "assignor");
  require_text(args.auto_offset_reset, "auto_offset_reset");
  require_text(args.share_auto_offset_reset, "share_auto_offset_reset");
  require_int_option(args.record_lock_duration_ms, "record_lock_duration_ms");
  require_int_option(args.delivery_count_limit, "delivery_count_limit");
  require_int_option(args.partition_max_record_locks, "partition_max_record_locks");
  TopicOptionsArg arg;
  kgroups::TopicOptions& options = arg.options;
  options.partitioner = option_text(args.partitioner, "partitioner");
  options.assignor = option_text(args.assignor, "assignor");
  options.auto_offset_reset = option_text(args.auto_offset_reset, "auto_offset_reset");
  options.share_auto_offset_reset =
      option_text(args.share_auto_offset_reset, "share_auto_offset_reset");
  options.record_lock_duration_ms = int_option(
      args.record_lock_duration_ms, "record_lock_duration_ms",
      std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max(), arg);
  if (!arg.clamped.empty() &&
      arg.clamped.back().value == std::numeric_limits<std::int64_t>::max()) {
    // Above INT64_MAX: 0 makes the engine reject it in its turn; the message says why.
    TopicOptionsArg::Clamped& entry = arg.clamped.back();
    entry.value = 0;
    entry.message = "Topic: record_lock_duration_ms must be at least 1 and at most " +
                    std::to_string(std::numeric_limits<std::int64_t>::max()) + ", got " +
                    entry.given;
    options.record_lock_duration_ms = 0;
  }
  options.delivery_count_limit = static_cast<int>(
      int_option(args.delivery_count_limit, "delivery_count_limit", INT_MIN, INT_MAX, arg));
  options.partition_max_record_locks = static_cast<int>(int_option(
      args.partition_max_record_locks, "partition_max_record_locks", INT_MIN, INT_MAX, arg));
  return arg;
}

std::string TopicOptionsArg::with_given_values(std::string message) const {
  for (const Clamped& entry : clamped) {
    const std::string engine_value = ", got " + std::to_string(entry.value);
    const std::size_t at = message.find(entry.option);
    if (at == std::string::npos) {
      continue;
    }
    if (!entry.message.empty()) {
      return entry.message;
    }
    const std::size_t value_at = message.find(engine_value, at);
    if (value_at != std::string::npos) {
      message.replace(value_at, engine_value.size(), ", got " + entry.given);
    }
  }
  return message;
}

std::string partitioner_arg(py::handle partitioner) {
  return option_text(partitioner, "partitioner");
}

}  // namespace kgroups::python
