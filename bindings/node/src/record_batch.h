// SPDX-License-Identifier: Apache-2.0
//
// The compact form in which poll hands records to topic.js, which turns it into
// the { partition, offset, key, value } objects of SPEC.md. Plain objects and
// Buffer views are much cheaper to make in JS than through Node-API calls, so
// the addon makes one JS string per distinct text key and value of the batch
// (batch_strings.h) and a fixed number of other values:
//
//   [string0, string1, ..., refs, runs, bytes, byteLengths]
//
// - refs is an Int32Array of two entries per record, its key's then its
//   value's: the index of the string among the batch's leading strings for
//   text, -1 for bytes. The bytes of a byte key or value are the next n bytes
//   of `bytes`, where n is the next entry of byteLengths (a Float64Array).
//   `bytes` is an ArrayBuffer holding the bytes of all byte keys and values in
//   order (undefined if there are none); JS hands out Buffer views of it.
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
