// SPDX-License-Identifier: Apache-2.0
//
// The `offsets` argument of Topic.commit: None, or any mapping (dict, ...) from
// int partitions to int offsets, read into the engine's std::map. Python ints
// that do not fit the C++ types are kept aside so that commit can report them as
// SPEC.md says: a partition outside C++ int is not assigned (NotAssignedError);
// an offset outside std::int64_t is out of range (ValueError). Call with the GIL held.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <map>

namespace kgroups::python {

struct OffsetsArg {
  std::map<int, std::int64_t> offsets;  // entries whose partition fits in int
  // The first key found that does not fit in int, or a null object.
  pybind11::object unrepresentable_partition;
  // The first offset found that does not fit in std::int64_t (null if none) and its
  // partition; in `offsets` it is replaced by INT64_MIN or INT64_MAX, which no
  // partition's range 0..end_offset contains.
  pybind11::object unrepresentable_offset;
  int unrepresentable_offset_partition = 0;
};

// True if `offsets` is a mapping (a dict or a collections.abc.Mapping).
bool is_mapping(pybind11::handle offsets);

// Reads a mapping checked by is_mapping. Throws py::type_error for a key or value
// that is not an int, naming it.
OffsetsArg offsets_arg(pybind11::handle offsets);

}  // namespace kgroups::python
