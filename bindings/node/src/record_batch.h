// SPDX-License-Identifier: Apache-2.0
//
// The compact form in which poll hands records to topic.js, which turns it into
// the { partition, offset, key, value } objects of SPEC.md. Plain objects and
// Buffer views are much cheaper to make in JS than through Node-API calls, so
// the addon makes a JS string only for text it has not handed out recently
// (poll_strings.h) and a fixed number of other values per batch:
//
//   [string0, string1, ..., refs, placements, runs, bytes, byteLengths]
//
// - The leading strings are the batch's new strings. placements is an
//   Int32Array of (slot, i) pairs: topic.js first stores string i in slot
//   `slot` of the Topic's string table (an array of PollStrings::kSlotCount
//   strings that topic.js keeps and the addon never reads).
// - refs is an Int32Array of two entries per record, its key's then its
//   value's: a string table slot (>= 0) for text, -2 - i for the batch's new
//   string i that has no slot, -1 for bytes. The bytes of a byte key or value
//   are the next n bytes of `bytes`, where n is the next entry of byteLengths
//   (a Float64Array). `bytes` is an ArrayBuffer holding the bytes of all byte
//   keys and values in order (undefined if there are none); JS hands out
//   Buffer views of it.
// - runs is a Float64Array of (partition, first offset, count) triples: `count`
//   records of `partition` with offsets first, first + 1, ... in record order.
// Used on the JS thread only.
#pragma once

#include <napi.h>

#include <vector>

#include "kgroups/record.h"
#include "poll_strings.h"

namespace kgroups::node {

// The compact form of `records` (views of one Topic's log), copying every key
// and value that is not in the Topic's string table yet; key_strings and
// value_strings are that Topic's (poll_strings.h).
[[nodiscard]] Napi::Array records_to_batch(Napi::Env env, const std::vector<Record>& records,
                                           PollStrings& key_strings, PollStrings& value_strings);

}  // namespace kgroups::node
