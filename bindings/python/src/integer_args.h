// SPDX-License-Identifier: Apache-2.0
//
// Reading Python integers (int, bool, or any object with __index__) into the
// int and std::int64_t of the C++ API. A float, str, None, ... is a TypeError.
// A Python int too large for the C++ type is reported as the error SPEC.md names
// for that argument (an out-of-range partition, a bad num_partitions, ...), never
// as OverflowError. Call with the GIL held.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>

#include "kgroups/topic.h"

namespace kgroups::python {

// A Python integer read into std::int64_t.
struct Int64Arg {
  std::int64_t value = 0;  // valid when overflow == 0
  int overflow = 0;        // -1: below INT64_MIN, +1: above INT64_MAX, 0: fits
};

// Reads `object` (int, bool or anything with __index__). Throws py::type_error
// ("<what> must be an int, not float") for anything else.
Int64Arg int64_arg(pybind11::handle object, const char* what);

// Throws py::type_error unless `object` is an integer (see int64_arg).
void require_int(pybind11::handle object, const char* what);

// num_partitions for Topic() or partition_for(). Throws std::invalid_argument for a
// value that does not fit in a C++ int (the engine rejects values < 1 itself).
int num_partitions_arg(pybind11::handle object, const char* method);

// A partition for end_offset or committed. Throws std::out_of_range for a value
// that does not fit in a C++ int, which is outside every topic.
int partition_arg(const kgroups::Topic& topic, pybind11::handle object, const char* method);

// max_records for poll. A value above INT_MAX means "no limit" and becomes INT_MAX;
// one below INT_MIN throws std::invalid_argument (the engine rejects other
// negative values itself).
int max_records_arg(pybind11::handle object);

// repr(object), for error messages.
std::string python_repr(pybind11::handle object);

}  // namespace kgroups::python
