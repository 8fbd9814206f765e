// SPDX-License-Identifier: Apache-2.0
//
// The keyword-only options of kgroups.Topic (SPEC.md, "Options") and the
// partitioner argument of partition_for: Python str objects read into the
// engine's strings. Only the type is checked here (TypeError); whether a value
// is one of the choices is the engine's rule (std::invalid_argument, which
// becomes ValueError naming the option and its choices). Call with the GIL held.
#pragma once

#include <pybind11/pybind11.h>

#include <string>

#include "kgroups/topic_options.h"

namespace kgroups::python {

// Reads the three options, in SPEC.md's table order. Throws py::type_error
// ("assignor must be a str, not int") for the first one that is not a str.
kgroups::TopicOptions topic_options_arg(pybind11::handle partitioner, pybind11::handle assignor,
                                        pybind11::handle auto_offset_reset);

// The partitioner argument of partition_for. Throws py::type_error unless it is a str.
std::string partitioner_arg(pybind11::handle partitioner);

}  // namespace kgroups::python
