// SPDX-License-Identifier: Apache-2.0
//
// The one place where C++ errors become JavaScript errors (SPEC.md, "Errors"):
//   kgroups::NotAssignedError -> NotAssignedError (errors.js), with .partition
//   kgroups::NoOffsetError    -> NoOffsetError (errors.js), with .partitions
//                                (the message spells auto_offset_reset autoOffsetReset)
//   kgroups::NotAcquiredError -> NotAcquiredError (errors.js), with .partition and .offset
//   std::invalid_argument     -> RangeError
//   std::out_of_range         -> RangeError
// always with the C++ message. Wrong argument types are TypeErrors raised while
// converting arguments (convert.h, key_value.h), before the engine is called.
// Used on the JS thread only.
#pragma once

#include <napi.h>

#include <string>

namespace kgroups::node {

// Rethrows the exception being handled as the matching Napi::Error. Call it
// only from inside a catch block.
[[noreturn]] void rethrow_as_js_error(Napi::Env env);

// Runs fn() and returns its result; a C++ exception from the engine leaves as
// the JS error of the table above. Napi::Errors (TypeErrors from argument
// conversion, exceptions from JS code) pass through unchanged.
template <typename Fn>
auto call_guarded(Napi::Env env, Fn&& fn) -> decltype(fn()) {
  try {
    return fn();
  } catch (const Napi::Error&) {
    throw;
  } catch (...) {
    rethrow_as_js_error(env);
  }
}

// Throws the NotAcquiredError of errors.js (an Error if index.js did not hand it over)
// with the message, partition and offset.
[[noreturn]] void throw_not_acquired_error(Napi::Env env, const std::string& message,
                                           double partition, double offset);

// Throws a TypeError with the message, e.g. "poll: group must be a string, got number".
[[noreturn]] void throw_type_error(Napi::Env env, const std::string& message);

// Throws a RangeError with the message, for numbers the binding cannot pass on
// (not a safe integer, an offsets key that is not a decimal integer).
[[noreturn]] void throw_range_error(Napi::Env env, const std::string& message);

}  // namespace kgroups::node
