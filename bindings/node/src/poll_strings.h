// SPDX-License-Identifier: Apache-2.0
//
// PollStrings: which JS string a Topic's polls last handed out for a text key
// (or value), found by content, so that text polled again (a key repeating in
// a batch, or a value that later batches hold again) reuses that string instead
// of making a new one. A JS string is immutable, so sharing it is invisible to
// the user; the pure-JS model hands out one string object for all records of a
// value, too.
//
// The strings themselves stay in JS: topic.js keeps a string table (an array
// of kSlotCount strings per Topic) and each poll batch says which of its new
// strings go to which slots (record_batch.h). This class keeps the other half,
// content -> slot; each Topic has one for keys (slots 0..kMaxEntries-1) and
// one for values (the slots after those).
//
// Bounded: at most kMaxEntries contents each (a fixed table of kSlots entries,
// 32 KiB, made at the Topic's first poll); when it is full, the next batch
// starts afresh. Texts longer than kMaxCachedBytes are never kept (rarely
// repeated, costly to hash). If a batch's first kProbeRecords lookups find
// almost nothing again, the rest of that batch skips the table, so unique
// values cost little extra; the next batch tries again.
//
// Contents are views into the Topic's log (valid while the Topic lives), so a
// PollStrings belongs to one Topic. Used on its JS thread only.
#pragma once

#include <napi.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace kgroups::node {

// Where a record's key or value is in a batch (record_batch.h).
struct BatchRefs {
  std::vector<napi_value> new_strings;   // strings made for this batch
  std::vector<std::int32_t> placements;  // (slot, index in new_strings) pairs
};

class PollStrings {
 public:
  static constexpr std::size_t kSlots = 1024;             // a power of two
  static constexpr std::size_t kMaxEntries = kSlots / 2;  // keeps probe runs short
  static constexpr std::size_t kMaxCachedBytes = 1024;
  static constexpr std::uint32_t kProbeRecords = 64;  // lookups before judging the hit rate
  // String table slots for a Topic: kMaxEntries for keys, then for values.
  static constexpr std::size_t kSlotCount = 2 * kMaxEntries;

  // Contents get string table slots first_slot .. first_slot + kMaxEntries - 1.
  explicit PollStrings(std::uint32_t first_slot) noexcept : first_slot_(first_slot) {}

  // Starts a batch (starting afresh if the table is full).
  void begin_batch() noexcept;

  // Forgets every content: call it when a batch that may have placed strings
  // does not reach topic.js, whose string table then lacks them.
  void forget() noexcept;

  // The ref (record_batch.h) of the JS string holding the UTF-8 text `utf8`: a
  // string table slot (>= 0) holding it, placed there by an earlier batch or by
  // this one (a new string in refs.new_strings and a placement), or -2 - i for
  // new_strings[i], a new string that has no slot.
  [[nodiscard]] std::int32_t ref_of(napi_env env, std::string_view utf8, BatchRefs& refs);

 private:
  struct Slot {
    std::uint32_t epoch = 0;  // the epoch that filled it; 0 never matches
    std::uint32_t size = 0;
    std::uint64_t hash = 0;
    const char* data = nullptr;  // in the Topic's log
    std::int32_t slot = 0;       // in the string table
  };

  [[nodiscard]] bool worth_looking_up(std::size_t size) const noexcept;

  std::array<Slot, kSlots> slots_{};
  std::uint32_t first_slot_;
  std::uint32_t epoch_ = 1;
  std::size_t entries_ = 0;    // contents of this epoch
  std::uint32_t lookups_ = 0;  // in this batch
  std::uint32_t hits_ = 0;     // in this batch
};

}  // namespace kgroups::node
