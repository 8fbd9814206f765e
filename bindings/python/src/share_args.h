// SPDX-License-Identifier: Apache-2.0
//
// The arguments of kgroups.Topic.acknowledge (SPEC.md, "Share groups"): the
// acknowledgement type, a str ("accept", "release" or "reject"), and the records, an
// iterable of (partition, offset) pairs. Types are checked here (TypeError); an
// unknown type name is a ValueError naming the choices. Call with the GIL held.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "kgroups/share_record.h"

namespace kgroups::python {

// True if `type` is a str (acknowledge's three-argument form passes the type third).
bool is_acknowledge_type(pybind11::handle type);

// Throws py::type_error unless `type` is a str.
void require_acknowledge_type(pybind11::handle type);

// "accept" -> kAccept, "release" -> kRelease, "reject" -> kReject. Throws
// std::invalid_argument for any other str (checked by require_acknowledge_type first).
kgroups::AcknowledgeType acknowledge_type_arg(pybind11::handle type);

struct AcknowledgeRecordsArg {
  // The records in order; a number beyond the C++ type is clamped to its nearest
  // value, which names no record (no topic has partition INT_MAX nor offset INT64_MAX).
  std::vector<std::pair<int, std::int64_t>> records;
  // The Python (partition, offset) of each clamped entry, by its index in `records`,
  // so that a NotAcquiredError names the numbers the caller gave.
  std::vector<std::pair<std::size_t, pybind11::object>> clamped;
};

// Reads an iterable (list, tuple, generator, ...) of (partition, offset) pairs, each a
// tuple or list of two ints. Throws py::type_error for anything else, naming it. A str,
// bytes or mapping is not taken for a list of records.
AcknowledgeRecordsArg acknowledge_records_arg(pybind11::handle records);

}  // namespace kgroups::python
