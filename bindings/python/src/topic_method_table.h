// SPDX-License-Identifier: Apache-2.0
//
// Installs the methods of kgroups.Topic (append ... committed, lag, rebalances; the
// share-group methods come from share_method_table.h) on
// the class that topic_binding.cc registers. They are CPython METH_FASTCALL | METH_KEYWORDS
// method descriptors rather than pybind11 functions: pybind11's general dispatcher
// costs several times the engine's own work on small calls such as append (see
// docs/PERFORMANCE.md). Each takes the same keyword names as SPEC.md and has a
// __text_signature__, so help() and inspect.signature() show real signatures.
#pragma once

#include <pybind11/pybind11.h>

#include "kgroups/topic.h"

namespace kgroups::python {

// The C++ Topic inside `self`, which a method descriptor of kgroups.Topic has checked to
// be a kgroups.Topic. Throws py::type_error if its __init__ was not called.
kgroups::Topic& topic_of(PyObject* self);

// The PyMethodDef of a METH_FASTCALL | METH_KEYWORDS function.
template <auto kFunction>
PyMethodDef fastcall_method(const char* name, const char* doc) noexcept {
  return {name, reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(kFunction)),
          METH_FASTCALL | METH_KEYWORDS, doc};
}

// Adds the methods of a {nullptr}-terminated table to the class as method descriptors.
void add_methods(pybind11::handle topic_class, PyMethodDef* methods);

// Call once, while the module initializes (GIL held).
void add_topic_methods(pybind11::handle topic_class);

// partition_for(key, num_partitions, partitioner), the module-level function, made
// the same way.
void add_partition_for(pybind11::module_& module);

}  // namespace kgroups::python
