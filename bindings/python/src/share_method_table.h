// SPDX-License-Identifier: Apache-2.0
//
// Installs the share-group methods of kgroups.Topic (SPEC.md, "Share groups"):
// share_join, share_leave, share_assignment, share_poll, acknowledge, advance_clock,
// clock, share_start_offset and share_partition_state, made as topic_method_table.h
// makes the others (METH_FASTCALL method descriptors with __text_signature__).
#pragma once

#include <pybind11/pybind11.h>

namespace kgroups::python {

// Call once, while the module initializes (GIL held).
void add_share_methods(pybind11::handle topic_class);

}  // namespace kgroups::python
