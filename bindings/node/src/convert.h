// SPDX-License-Identifier: Apache-2.0
//
// Argument conversion for the addon: JS strings, numbers and offsets objects to
// the C++ types of kgroups::Topic. Each method first checks the types of all its
// arguments (check_*: TypeError), then converts them (to_*: RangeError for a
// number that is not a safe integer), as SPEC.md's validation order asks.
// Messages name the call and the argument: "poll: maxRecords must be ...".
// Used on the JS thread only.
#pragma once

#include <napi.h>

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace kgroups::node {

// The type of a JS value in words, for messages: "number", "null", "array", "Map", ...
[[nodiscard]] std::string describe_type(Napi::Value value);

// Throw a TypeError unless `value` is a string / a number. `what` names the
// argument, e.g. "poll: group".
void check_string(Napi::Value value, const char* what);
void check_number(Napi::Value value, const char* what);

// The number `value` (already checked to be one) as an integer. Throws a
// RangeError unless it is a safe integer (Number.isSafeInteger).
[[nodiscard]] std::int64_t to_safe_integer(Napi::Value value, const char* what);

// A safe integer (as to_safe_integer) that must also fit an int, for counts the
// engine takes as int (numPartitions). Throws a RangeError otherwise.
[[nodiscard]] int to_int(Napi::Value value, const char* what);

// A safe integer (as to_safe_integer) clamped to the int range. Use it where any
// value beyond the int range means the same as the nearest int: a partition
// beyond it is out of range either way, a maxRecords beyond it asks for all.
[[nodiscard]] int to_clamped_int(Napi::Value value, const char* what);

// The UTF-8 bytes of a JS string (lone surrogates become U+FFFD), held for the
// duration of one call. Short strings use an inline buffer. Not copyable: it
// views itself.
class Utf8 {
 public:
  explicit Utf8(Napi::Value string);
  Utf8(const Utf8&) = delete;
  Utf8& operator=(const Utf8&) = delete;

  [[nodiscard]] std::string_view view() const noexcept { return view_; }

 private:
  std::array<char, 256> inline_{};  // holds the bytes when they fit (with room for a NUL)
  std::string heap_;                // holds them otherwise
  std::string_view view_;           // the bytes, in inline_ or heap_
};

// The object's own enumerable string keys (Object.keys), numbers as strings.
[[nodiscard]] Napi::Array own_string_keys(const Napi::Object& object);

// commit's `offsets`: undefined or null give std::nullopt ("no offsets"); a
// plain object gives its {partition: offset} map. Throws a TypeError for any
// other value (an array, a Map, a string, ...) or an offset that is not a
// number, then a RangeError for a key that is not the decimal form of a safe
// integer or an offset that is not a safe integer. Partitions beyond the int
// range are clamped to it: never assigned, they fail as NotAssignedError.
[[nodiscard]] std::optional<std::map<int, std::int64_t>> to_offsets(Napi::Value offsets,
                                                                    const char* what);

}  // namespace kgroups::node
