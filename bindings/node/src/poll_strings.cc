// SPDX-License-Identifier: Apache-2.0
//
// The JS strings of a Topic's recent polls, by content; see poll_strings.h.
#include "poll_strings.h"

#include <cstring>

#include "key_value.h"

namespace kgroups::node {
namespace {

constexpr std::uint64_t kMultiplier = 0x9E3779B97F4A7C15ULL;

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

// All of a text of 0 to 7 bytes in one word, by whole loads (overlapping where
// needed) rather than a byte-by-byte copy, which stalls the load that follows
// it. With the size known this loses nothing: 4 to 7 bytes are two
// overlapping halves, 1 to 3 bytes are bytes 0, size / 2 and size - 1.
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

std::uint64_t rotate(std::uint64_t word, unsigned bits) noexcept {
  return (word << bits) | (word >> (64U - bits));
}

}  // namespace

// Not for untrusted adversaries: a collision costs comparisons, never a wrong
// string. The sampled words are multiplied independently, so the
// multiplications overlap.
PollStrings::Probe::Probe(std::string_view utf8) noexcept {
  const std::size_t size = utf8.size();
  const char* bytes = utf8.data();
  std::uint64_t mixed = 0;
  if (size < 8) {
    head = short_word(bytes, size);
    tail = 0;
    mixed = (head + size) * kMultiplier;
  } else {
    head = load_word(bytes);
    tail = load_word(bytes + size - 8);
    mixed =
        ((head + size) * kMultiplier) ^ rotate((tail ^ 0x5851F42D4C957F2DULL) * kMultiplier, 23);
    if (size > 16) {
      const std::size_t quarter = size / 4;
      const std::uint64_t middle = load_word(bytes + size / 2 - 4);
      mixed ^= rotate((middle ^ 0x2545F4914F6CDD1DULL) * kMultiplier, 41);
      if (size > 32) {
        mixed ^= rotate(load_word(bytes + quarter) * 0xC2B2AE3D27D4EB4FULL, 13) ^
                 rotate(load_word(bytes + size - quarter - 8) * 0x165667B19E3779F9ULL, 51);
      }
    }
  }
  mixed ^= mixed >> 29U;
  mixed *= kMultiplier;
  mixed ^= mixed >> 32U;
  hash = mixed;
}

void PollStrings::begin_batch() noexcept {
  filling_lookups_ += lookups_;
  filling_hits_ += hits_;
  lookups_ = 0;
  hits_ = 0;
  if (entry_count_ >= kMaxEntries) forget();
}

void PollStrings::forget() noexcept {
  if (entry_count_ > 0) entries_.fill(Entry{});
  entry_count_ = 0;
  sparing_ = filling_hits_ * 16 < filling_lookups_;
  filling_lookups_ = 0;
  filling_hits_ = 0;
}

std::int32_t PollStrings::unplaced(napi_env env, std::string_view utf8, BatchRefs& refs) {
  refs.new_strings.push_back(text_to_js(env, utf8));
  return -static_cast<std::int32_t>(refs.new_strings.size() - 1);
}

std::int32_t PollStrings::place(napi_env env, std::string_view utf8, const Probe& probe,
                                std::size_t index, BatchRefs& refs) {
  if (entry_count_ >= kMaxEntries) return unplaced(env, utf8, refs);
  refs.new_strings.push_back(text_to_js(env, utf8));
  const auto table_slot = static_cast<std::int32_t>(first_slot_ + entry_count_);
  refs.placements.insert(refs.placements.end(),
                         {table_slot, static_cast<std::int32_t>(refs.new_strings.size() - 1)});
  entries_[index] = Entry{probe.head, probe.tail, utf8.data(),
                          static_cast<std::uint32_t>(utf8.size()), table_slot};
  ++entry_count_;
  return table_slot;
}

}  // namespace kgroups::node
