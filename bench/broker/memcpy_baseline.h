// SPDX-License-Identifier: Apache-2.0
//
// The copy a broker cannot avoid, as a baseline for its CPU per produced byte
// (issue 32): how long this machine takes to memcpy a given number of bytes, in
// 1 MiB pieces (a produce request's size) into warm memory, measured in the same
// run as the broker.
#pragma once

#include <cstddef>

namespace kgroups::bench {

// Seconds to copy `bytes` bytes: the best of three passes, each copying 1 MiB
// pieces from one buffer into the next slot of a 64 MiB ring that was written
// once before timing.
double memcpy_seconds(std::size_t bytes);

}  // namespace kgroups::bench
