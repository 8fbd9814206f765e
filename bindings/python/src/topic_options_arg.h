// SPDX-License-Identifier: Apache-2.0
//
// The keyword-only options of kgroups.Topic (SPEC.md, "Options" and "Share groups")
// and the partitioner argument of partition_for: Python str and int objects read into
// the engine's TopicOptions. Only types are checked here (TypeError), and that an int
// fits the C++ field; whether a value is one of the choices or in range is the engine's
// rule (std::invalid_argument, which becomes ValueError naming the option). Call with
// the GIL held.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>
#include <vector>

#include "kgroups/topic_options.h"

namespace kgroups::python {

// The options as Python objects, in SPEC.md's order.
struct TopicOptionArgs {
  pybind11::handle partitioner;
  pybind11::handle assignor;
  pybind11::handle auto_offset_reset;
  pybind11::handle share_auto_offset_reset;
  pybind11::handle record_lock_duration_ms;
  pybind11::handle delivery_count_limit;
  pybind11::handle partition_max_record_locks;
};

struct TopicOptionsArg {
  kgroups::TopicOptions options;
  // An int option beyond its C++ field is replaced by a value the engine rejects: the
  // field's nearest value (delivery_count_limit, partition_max_record_locks, a negative
  // record_lock_duration_ms) or 0 (a record_lock_duration_ms above INT64_MAX). The engine
  // then checks it in SPEC.md's order, and its message names that value. These are the
  // option, the value passed on, repr() of the value given, and for a value the engine
  // would not name rightly the whole message to give instead.
  struct Clamped {
    const char* option;
    std::int64_t value;
    std::string given;
    std::string message;
  };
  std::vector<Clamped> clamped;

  // The engine's message about the options, with the values given.
  [[nodiscard]] std::string with_given_values(std::string message) const;
};

// Reads the options. Throws py::type_error ("assignor must be a str, not int",
// "delivery_count_limit must be an int, not str") for the first one of the wrong type.
// A bool is not taken for an int option.
TopicOptionsArg topic_options_arg(const TopicOptionArgs& args);

// The partitioner argument of partition_for. Throws py::type_error unless it is a str.
std::string partitioner_arg(pybind11::handle partitioner);

}  // namespace kgroups::python
