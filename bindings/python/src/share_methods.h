// SPDX-License-Identifier: Apache-2.0
//
// The share-group methods of kgroups.Topic (SPEC.md, "Share groups"), one function
// each, as topic_methods.h does for consumer groups: read and type-check the arguments
// (TypeError, before the engine reads any state), hand off to the engine, convert the
// result. Every rule lives in the engine. Call with the GIL held; share_join,
// share_leave and share_poll release it around the engine call.
#pragma once

#include <pybind11/pybind11.h>

#include "kgroups/topic.h"

namespace kgroups::python {

pybind11::object share_join(kgroups::Topic& topic, pybind11::handle group,
                            pybind11::handle member_id);
pybind11::object share_leave(kgroups::Topic& topic, pybind11::handle group,
                             pybind11::handle member_id);
pybind11::object share_assignment(const kgroups::Topic& topic, pybind11::handle group,
                                  pybind11::handle member_id);
pybind11::object share_poll(kgroups::Topic& topic, pybind11::handle group,
                            pybind11::handle member_id, pybind11::handle max_records);
// records and type are null when not given. acknowledge(group, member_id, type) (the type
// third, or records None) acknowledges everything the member holds.
pybind11::object acknowledge(kgroups::Topic& topic, pybind11::handle group,
                             pybind11::handle member_id, pybind11::handle records,
                             pybind11::handle type);
pybind11::object advance_clock(kgroups::Topic& topic, pybind11::handle ms);
pybind11::object clock(const kgroups::Topic& topic);
pybind11::object share_start_offset(const kgroups::Topic& topic, pybind11::handle group,
                                    pybind11::handle partition);
// A dict with exactly the keys of Topic::SharePartitionState's fields, in their order.
pybind11::object share_partition_state(const kgroups::Topic& topic, pybind11::handle group,
                                       pybind11::handle partition);

}  // namespace kgroups::python
