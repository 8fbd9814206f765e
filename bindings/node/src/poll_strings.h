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
// of kSlotCount strings per Topic) and each poll says which of its new strings
// go to which slots (record_batch.h). This class keeps the other half,
// content -> slot; each Topic has one for keys (slots 0..kMaxEntries-1) and
// one for values (the slots after those).
//
// The lookup is cheap where it matters (poll hands out every record's key and
// value through it): a hash over at most five 8-byte words of the text (its
// first and last 8 bytes, and for longer texts three words between), an open
// addressing table of 32-byte entries (one cache line per probe), and an
// exact comparison: texts of up to 16 bytes are held whole in their entry (two
// words, compared in registers), longer ones are compared with the first copy
// in the log. Look-alike texts
// that differ only between the sampled words share a hash; a probe gives up
// after kMaxProbes slots (the text then gets a string of its own), so they
// cost a few comparisons each, never a wrong string.
//
// Bounded: at most kMaxEntries contents each (tables of kSlots entries,
// 64 KiB, made at the Topic's first poll); when it is full, the next
// batch starts afresh. Texts longer than kMaxCachedBytes are never kept
// (rarely repeated). If the lookups that filled the table last time found
// almost nothing again (unique values), it is spared: the rest of a batch skips
// the table when its first kProbeRecords lookups find almost nothing, so
// unique values cost little extra; the next batch tries again. A table that
// starts afresh after a filling that found texts again (and a new Topic's) is
// not spared: a batch whose first texts are all new (the first batches of
// a new Topic) still fills it.
//
// Contents are views into the Topic's log (valid while the Topic lives), so a
// PollStrings belongs to one Topic. Used on its JS thread only.
#pragma once

#include <napi.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

namespace kgroups::node {

// A batch's new strings and where they go (record_batch.h).
struct BatchRefs {
  // The elements of poll's extras array: two entries record_batch.cc sets,
  // then the strings made for this batch.
  std::vector<napi_value> new_strings;
  std::vector<std::int32_t> placements;  // (slot, index in new_strings) pairs
};

class PollStrings {
 public:
  static constexpr std::size_t kSlots = 2048;             // a power of two
  static constexpr std::size_t kMaxEntries = kSlots / 2;  // keeps probe runs short
  static constexpr std::size_t kMaxCachedBytes = 1024;
  static constexpr std::size_t kMaxProbes = 16;
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
  // this one (a new string in refs.new_strings and a placement), or -i for
  // refs.new_strings[i] (i >= 2), a new string that has no slot.
  [[nodiscard]] std::int32_t ref_of(napi_env env, std::string_view utf8, BatchRefs& refs) {
    const std::size_t size = utf8.size();
    if (!worth_looking_up(size)) return unplaced(env, utf8, refs);
    ++lookups_;
    const Probe probe(utf8);
    std::size_t index = probe.hash & (kSlots - 1);
    for (std::size_t probes = 0; probes < kMaxProbes;
         ++probes, index = (index + 1) & (kSlots - 1)) {
      const Entry& entry = entries_[index];
      if (entry.slot < 0) return place(env, utf8, probe, index, refs);
      if (entry.head == probe.head && entry.size == size && entry.tail == probe.tail &&
          (size <= 16 || same_middle(entry.data, utf8.data(), size))) {
        ++hits_;
        return entry.slot;
      }
    }
    return unplaced(env, utf8, refs);
  }

 private:
  // A text's hash and its first and last 8 bytes (for texts
  // under 8 bytes: all of them in `head`, `tail` 0), which with its size say
  // exactly what a text of up to 16 bytes holds.
  struct Probe {
    explicit Probe(std::string_view utf8) noexcept;
    std::uint64_t hash;
    std::uint64_t head;
    std::uint64_t tail;
  };

  struct alignas(32) Entry {
    std::uint64_t head = 0;
    std::uint64_t tail = 0;
    const char* data = nullptr;  // in the Topic's log
    std::uint32_t size = 0;
    std::int32_t slot = -1;  // in the string table; -1: a free entry
  };

  // Whether texts a and b of `size` (> 16) bytes, whose first and last 8
  // bytes are equal, hold the same bytes between: by 8-byte words (the last
  // one may overlap the last 8 bytes), inline rather than a memcmp call.
  [[nodiscard]] static bool same_middle(const char* a, const char* b, std::size_t size) noexcept {
    std::uint64_t difference = 0;
    for (std::size_t at = 8; at < size - 8; at += 8) {
      std::uint64_t word_a = 0;
      std::uint64_t word_b = 0;
      std::memcpy(&word_a, a + at, 8);
      std::memcpy(&word_b, b + at, 8);
      difference |= word_a ^ word_b;
    }
    return difference == 0;
  }

  [[nodiscard]] bool worth_looking_up(std::size_t size) const noexcept {
    if (size > kMaxCachedBytes) return false;
    // When sparing: after kProbeRecords lookups, go on only if at least 1 in
    // 16 found a string.
    return !sparing_ || lookups_ < kProbeRecords || hits_ * 16 >= lookups_;
  }

  // A new string for utf8 in slot `index` of the table (if it has room), or
  // one without a slot.
  std::int32_t place(napi_env env, std::string_view utf8, const Probe& probe, std::size_t index,
                     BatchRefs& refs);
  static std::int32_t unplaced(napi_env env, std::string_view utf8, BatchRefs& refs);

  std::array<Entry, kSlots> entries_{};
  std::uint32_t first_slot_;
  std::size_t entry_count_ = 0;  // contents since the last start afresh
  std::uint32_t lookups_ = 0;    // in this batch
  std::uint32_t hits_ = 0;       // in this batch
  // Since the last start afresh, before this batch.
  std::uint64_t filling_lookups_ = 0;
  std::uint64_t filling_hits_ = 0;
  bool sparing_ = false;  // the last filling of the table found almost nothing
};

}  // namespace kgroups::node
