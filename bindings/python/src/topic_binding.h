// SPDX-License-Identifier: Apache-2.0
//
// Registers the class kgroups.Topic over the C++ kgroups::Topic (held by a
// std::unique_ptr): its constructor (num_partitions and the keyword-only options
// of SPEC.md's "Options"), num_partitions, repr, and the methods of
// topic_method_table.h. The engine is thread-safe, so a Topic may be shared
// between Python threads.
#pragma once

#include <pybind11/pybind11.h>

namespace kgroups::python {

void register_topic(pybind11::module_& module);

}  // namespace kgroups::python
