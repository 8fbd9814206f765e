// SPDX-License-Identifier: Apache-2.0
//
// BatchStrings: the JS strings made for the text keys and values of one poll
// batch, found by content, so that identical bytes within one batch become one
// JS string (a JS string is immutable, so sharing it is invisible to the user;
// the pure-JS model hands out the same string object for every record of one
// value, too). Keys repeat within a batch (one key's records share a
// partition), and so do values in many workloads (statuses, small enums,
// repeated payloads).
//
// Bounded: at most kMaxEntries distinct contents are remembered per batch (a
// fixed table of kSlots entries, 32 KiB; the addon keeps one for keys and one
// for values per environment, made at its first poll); once it is full,
// further contents get a new string each, as they would without the table. Values longer than
// kMaxCachedBytes are not looked up: they are rarely repeated and hashing them costs more than it
// saves. If a batch's first kProbeRecords lookups find almost nothing again, the rest of that batch
// skips the table, so unique values cost little extra.
//
// The strings live in the handle scope of the Node-API call that makes them:
// begin_batch() at the start of each call forgets the previous batch's strings.
// Used on the JS thread of one environment only.
#pragma once

#include <napi.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace kgroups::node {

class BatchStrings {
 public:
  static constexpr std::size_t kSlots = 1024;             // a power of two
  static constexpr std::size_t kMaxEntries = kSlots / 2;  // keeps probe runs short
  static constexpr std::size_t kMaxCachedBytes = 1024;
  static constexpr std::uint32_t kProbeRecords = 64;  // lookups before judging the hit rate

  // Starts a batch: no string of an earlier batch is handed out again.
  void begin_batch() noexcept;

  // The index in `strings` of the JS string holding the UTF-8 text `utf8`: the
  // one made earlier in this batch for the same bytes, or a new one appended to
  // `strings`. `strings` must be the same vector for the whole batch; `utf8`
  // must stay valid (unchanged) until the next begin_batch() (the engine's
  // records view the log, which does).
  [[nodiscard]] std::uint32_t index_of(napi_env env, std::string_view utf8,
                                       std::vector<napi_value>& strings);

  // Distinct contents remembered in this batch (for tests of the bound).
  [[nodiscard]] std::size_t entries() const noexcept { return entries_; }

 private:
  struct Slot {
    std::uint32_t batch = 0;  // the batch that filled it; 0 never matches
    std::uint32_t size = 0;
    std::uint64_t hash = 0;
    std::uint32_t index = 0;  // in the batch's strings
    const char* data = nullptr;
  };

  [[nodiscard]] bool worth_looking_up(std::size_t size) const noexcept;

  std::array<Slot, kSlots> slots_{};
  std::uint32_t batch_ = 0;
  std::size_t entries_ = 0;
  std::uint32_t lookups_ = 0;
  std::uint32_t hits_ = 0;
};

}  // namespace kgroups::node
