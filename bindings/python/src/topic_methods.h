// SPDX-License-Identifier: Apache-2.0
//
// The methods of kgroups.Topic, one function each: read and type-check the
// arguments (TypeError, before the engine reads any state, as SPEC.md's validation
// order requires), hand off to the engine, convert the result to SPEC.md's Python
// types. Every rule lives in the engine. Call with the GIL held; poll, join and
// leave release it around the engine call (the engine is thread-safe).
#pragma once

#include <pybind11/pybind11.h>

#include "kgroups/topic.h"

namespace kgroups::python {

pybind11::object append(kgroups::Topic& topic, pybind11::handle key, pybind11::handle value);
pybind11::object end_offset(const kgroups::Topic& topic, pybind11::handle partition);
pybind11::object join(kgroups::Topic& topic, pybind11::handle group, pybind11::handle consumer_id);
pybind11::object leave(kgroups::Topic& topic, pybind11::handle group, pybind11::handle consumer_id);
pybind11::object assignment(const kgroups::Topic& topic, pybind11::handle group,
                            pybind11::handle consumer_id);
pybind11::object poll(kgroups::Topic& topic, pybind11::handle group, pybind11::handle consumer_id,
                      pybind11::handle max_records);
// `offsets` is None for "no offsets".
pybind11::object commit(kgroups::Topic& topic, pybind11::handle group, pybind11::handle consumer_id,
                        pybind11::handle offsets);
pybind11::object committed(const kgroups::Topic& topic, pybind11::handle group,
                           pybind11::handle partition);
pybind11::object lag(const kgroups::Topic& topic, pybind11::handle group);
pybind11::object rebalances(const kgroups::Topic& topic, pybind11::handle group);

}  // namespace kgroups::python
