// SPDX-License-Identifier: Apache-2.0
//
// The compact form in which poll hands records to topic.js, which turns it into
// the { partition, offset, key, value } objects of SPEC.md. Plain objects and
// Buffer views are much cheaper to make in JS than through Node-API calls, so
// a poll makes no JS value per record: it writes numbers into a scratch
// ArrayBuffer that the Topic reuses from poll to poll (grown when a batch needs
// more), makes a JS string only for text it has not handed out recently
// (poll_strings.h), and at most one ArrayBuffer for the bytes of all byte keys
// and values (the user keeps their Buffers, so each poll needs its own).
//
// The scratch, for a batch of n records, in 32-bit words (i32) and in 64-bit
// floats (f64) over the same memory:
//
//   i32[0] n, i32[1] runs r, i32[2] placements p, i32[3] byte entries b
//   f64[2 .. 2 + 3r)           (partition, first offset, count) triples: `count`
//                              records of `partition` with offsets first,
//                              first + 1, ... in record order
//   f64[2 + 3n .. 2 + 3n + b)  the sizes of the byte keys and values in order
//   i32[4 + 10n .. 4 + 12n)    refs: two per record, its key's then its value's
//   i32[4 + 12n .. + 2p)       placements: (slot, i) pairs
//
// A ref is a string table slot (>= 0) for text, -i for text in the new
// string at index i (>= 2) of the extras array below that has no slot, or -1
// for bytes: a Buffer view of the
// next `size` bytes of the batch's byte ArrayBuffer, `size` the next byte entry.
// topic.js first stores the string at index i of the extras array in slot
// `slot` of the Topic's string table for each placement (an array of PollStrings::kSlotCount
// strings that topic.js keeps and the addon never reads).
//
// poll returns undefined when the batch needs nothing but the scratch, else
// the array [scratch, bytes, string0, string1, ...]: scratch is the new
// scratch ArrayBuffer if topic.js has not seen it yet (else undefined), bytes
// the ArrayBuffer of the byte keys and values (undefined if none), then the
// new strings.
// Used on the JS thread only.
#pragma once

#include <napi.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "kgroups/record.h"
#include "poll_strings.h"

namespace kgroups::node {

class PollBatch {
 public:
  // Words of the first scratch: a batch of up to 511 records.
  static constexpr std::size_t kInitialWords = 4 + 16 * 511;

  // Writes the compact form of `records` (views of one Topic's log) into the
  // scratch, copying every key and value that is not in the Topic's string
  // tables (key_strings, value_strings: that Topic's) yet; returns what poll
  // returns (see above).
  [[nodiscard]] Napi::Value encode(Napi::Env env, const std::vector<Record>& records,
                                   PollStrings& key_strings, PollStrings& value_strings);

  // Lets go of the scratch (topic.js may still hold it) and the reused vectors' memory;
  // the next encode() makes a new scratch.
  void release();

 private:
  // Makes sure the scratch holds `words` words.
  void reserve(Napi::Env env, std::size_t words);

  Napi::Reference<Napi::ArrayBuffer> scratch_;  // also held by topic.js
  std::int32_t* words_ = nullptr;               // the scratch's memory
  std::size_t capacity_ = 0;                    // in words
  bool scratch_unseen_ = false;                 // made, not yet returned to topic.js
  BatchRefs refs_;                              // reused from batch to batch
};

}  // namespace kgroups::node
