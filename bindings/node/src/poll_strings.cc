// SPDX-License-Identifier: Apache-2.0
//
// The JS strings of a Topic's recent polls, by content; see poll_strings.h.
#include "poll_strings.h"

#include <array>
#include <cstring>

#include "key_value.h"

namespace kgroups::node {
namespace {

// A fast hash of short byte strings (not for untrusted adversaries: a
// collision only costs a memcmp, never a wrong string). Four independent lanes
// of 8-byte words, so the multiplications overlap.
std::uint64_t mix(std::uint64_t lane, std::uint64_t word) noexcept {
  constexpr std::uint64_t kMultiplier = 0x9E3779B97F4A7C15ULL;
  lane = (lane ^ word) * kMultiplier;
  return lane ^ (lane >> 29U);
}

std::uint64_t load_word(const char* bytes) noexcept {
  std::uint64_t word = 0;
  std::memcpy(&word, bytes, 8);
  return word;
}

std::uint32_t load_half(const char* bytes) noexcept {
  std::uint32_t half = 0;
  std::memcpy(&half, bytes, 4);
  return half;
}

// Up to 7 bytes in one word, by whole loads (overlapping where needed) rather
// than a byte-by-byte copy, which stalls the load that follows it.
std::uint64_t short_word(const char* bytes, std::size_t size) noexcept {
  if (size >= 4) {
    return (static_cast<std::uint64_t>(load_half(bytes)) << 32U) | load_half(bytes + size - 4);
  }
  if (size == 0) return 0;
  const auto byte = [&](std::size_t index) {
    return static_cast<std::uint64_t>(static_cast<std::uint8_t>(bytes[index]));
  };
  return (byte(0) << 16U) | (byte(size / 2) << 8U) | byte(size - 1);
}

std::uint64_t hash_bytes(std::string_view bytes) noexcept {
  const std::size_t size = bytes.size();
  if (size < 8) return mix(mix(size, short_word(bytes.data(), size)), size);
  std::array<std::uint64_t, 4> lanes = {size, 1, 2, 3};
  const char* cursor = bytes.data();
  std::size_t left = size;
  for (; left >= 32; left -= 32, cursor += 32) {
    for (std::size_t lane = 0; lane < 4; ++lane) {
      lanes[lane] = mix(lanes[lane], load_word(cursor + 8 * lane));
    }
  }
  std::size_t lane = 0;
  for (; left >= 8; left -= 8, cursor += 8, ++lane)
    lanes[lane] = mix(lanes[lane], load_word(cursor));
  // The last 1-7 bytes: the string's last 8 bytes (overlapping ones already mixed).
  if (left > 0) lanes[lane] = mix(lanes[lane], load_word(bytes.data() + size - 8));
  return mix(mix(mix(lanes[0], lanes[1]), mix(lanes[2], lanes[3])), size);
}

}  // namespace

void PollStrings::begin_batch() noexcept {
  if (entries_ >= kMaxEntries) forget();
  lookups_ = 0;
  hits_ = 0;
}

void PollStrings::forget() noexcept {
  if (++epoch_ == 0) {  // wrapped: old slots could match again
    slots_.fill(Slot{});
    epoch_ = 1;
  }
  entries_ = 0;
}

bool PollStrings::worth_looking_up(std::size_t size) const noexcept {
  if (size > kMaxCachedBytes) return false;
  // After kProbeRecords lookups, go on only if at least 1 in 16 found a string.
  return lookups_ < kProbeRecords || hits_ * 16 >= lookups_;
}

std::int32_t PollStrings::ref_of(napi_env env, std::string_view utf8, BatchRefs& refs) {
  const auto add = [&] {
    refs.new_strings.push_back(text_to_js(env, utf8));
    return static_cast<std::int32_t>(refs.new_strings.size() - 1);
  };
  const auto unplaced = [&] { return -2 - add(); };
  if (!worth_looking_up(utf8.size())) return unplaced();
  ++lookups_;
  const std::uint64_t hash = hash_bytes(utf8);
  for (std::size_t index = hash & (kSlots - 1);; index = (index + 1) & (kSlots - 1)) {
    Slot& slot = slots_[index];
    if (slot.epoch != epoch_) {
      if (entries_ >= kMaxEntries) return unplaced();
      const auto table_slot = static_cast<std::int32_t>(first_slot_ + entries_);
      refs.placements.insert(refs.placements.end(), {table_slot, add()});
      slot = Slot{epoch_, static_cast<std::uint32_t>(utf8.size()), hash, utf8.data(), table_slot};
      ++entries_;
      return table_slot;
    }
    if (slot.hash == hash && slot.size == utf8.size() &&
        (utf8.empty() || std::memcmp(slot.data, utf8.data(), utf8.size()) == 0)) {
      ++hits_;
      return slot.slot;
    }
  }
}

}  // namespace kgroups::node
