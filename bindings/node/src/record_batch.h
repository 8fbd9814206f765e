// SPDX-License-Identifier: Apache-2.0
//
// The compact form in which poll hands records to topic.js, which turns it into
// the { partition, offset, key, value } objects of SPEC.md. Plain objects and
// Buffer views are much cheaper to make in JS than through Node-API calls, so
// the addon crosses once per key and value and once per batch otherwise:
//
//   [key0, value0, key1, value1, ..., runs, bytes]
//
// - A text key or value is a string. A byte key or value is its length n: its
//   bytes are the next n bytes of `bytes`, an ArrayBuffer holding the bytes of
//   all byte keys and values in order (undefined if there are none).
// - runs is a Float64Array of (partition, first offset, count) triples: `count`
//   records of `partition` with offsets first, first + 1, ... in record order.
// Used on the JS thread only.
#pragma once

#include <napi.h>

#include <vector>

#include "kgroups/record.h"

namespace kgroups::node {

// The compact form of `records`, copying every key and value.
[[nodiscard]] Napi::Array records_to_batch(Napi::Env env, const std::vector<Record>& records);

}  // namespace kgroups::node
