// SPDX-License-Identifier: Apache-2.0
//
// Installs the methods of kgroups.Topic (append ... committed, lag, rebalances) on
// the class that topic_binding.cc registers. They are CPython METH_FASTCALL | METH_KEYWORDS
// method descriptors rather than pybind11 functions: pybind11's general dispatcher
// costs several times the engine's own work on small calls such as append (see
// docs/PERFORMANCE.md). Each takes the same keyword names as SPEC.md and has a
// __text_signature__, so help() and inspect.signature() show real signatures.
#pragma once

#include <pybind11/pybind11.h>

namespace kgroups::python {

// Call once, while the module initializes (GIL held).
void add_topic_methods(pybind11::handle topic_class);

// partition_for(key, num_partitions, partitioner), the module-level function, made
// the same way.
void add_partition_for(pybind11::module_& module);

}  // namespace kgroups::python
