// SPDX-License-Identifier: Apache-2.0
//
// JS -> C++ argument conversion; see convert.h.
#include "convert.h"

#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "addon_state.h"
#include "errors.h"

namespace kgroups::node {
namespace {

constexpr double kMaxSafeInteger = 9007199254740991.0;  // Number.MAX_SAFE_INTEGER

// The JS string form of a value, as String(value) gives it, for messages.
std::string as_text(Napi::Value value) { return value.ToString().Utf8Value(); }

int clamp_to_int(std::int64_t value) {
  if (value > std::numeric_limits<int>::max()) return std::numeric_limits<int>::max();
  if (value < std::numeric_limits<int>::min()) return std::numeric_limits<int>::min();
  return static_cast<int>(value);
}

// The integer an offsets key spells in decimal as String(n) writes it ("0",
// "12", "-3"), clamped to the int range, or nullopt if the key is anything else
// ("1.5", "01", "-0", "1e3", "a", "").
std::optional<int> parse_partition_key(std::string_view key) {
  const bool negative = !key.empty() && key.front() == '-';
  const std::string_view digits = negative ? key.substr(1) : key;
  if (digits.empty() || (digits.front() == '0' && (digits.size() > 1 || negative))) {
    return std::nullopt;
  }
  std::int64_t magnitude = 0;
  for (const char digit : digits) {
    if (digit < '0' || digit > '9') return std::nullopt;
    if (magnitude <= std::numeric_limits<int>::max()) magnitude = magnitude * 10 + (digit - '0');
  }
  return clamp_to_int(negative ? -magnitude : magnitude);
}

}  // namespace

std::string describe_type(Napi::Value value) {
  switch (value.Type()) {
    case napi_undefined:
      return "undefined";
    case napi_null:
      return "null";
    case napi_boolean:
      return "boolean";
    case napi_number:
      return "number";
    case napi_string:
      return "string";
    case napi_symbol:
      return "symbol";
    case napi_function:
      return "function";
    case napi_bigint:
      return "bigint";
    case napi_external:
      return "external";
    case napi_object:
      break;
  }
  if (value.IsArray()) return "array";
  const Napi::Value constructor = value.As<Napi::Object>().Get("constructor");
  if (constructor.IsFunction()) {
    const Napi::Value name = constructor.As<Napi::Object>().Get("name");
    if (name.IsString() && name.As<Napi::String>().Utf8Value() != "Object") {
      return name.As<Napi::String>().Utf8Value();
    }
  }
  return "object";
}

void check_string(Napi::Value value, const char* what) {
  if (!value.IsString()) {
    throw_type_error(value.Env(),
                     std::string(what) + " must be a string, got " + describe_type(value));
  }
}

void check_number(Napi::Value value, const char* what) {
  if (!value.IsNumber()) {
    throw_type_error(value.Env(),
                     std::string(what) + " must be a number, got " + describe_type(value));
  }
}

std::int64_t to_safe_integer(Napi::Value value, const char* what) {
  const double number = value.As<Napi::Number>().DoubleValue();
  if (!std::isfinite(number) || std::trunc(number) != number ||
      std::fabs(number) > kMaxSafeInteger) {
    throw_range_error(value.Env(),
                      std::string(what) + " must be a safe integer, got " + as_text(value));
  }
  return static_cast<std::int64_t>(number);
}

int to_int(Napi::Value value, const char* what) {
  const std::int64_t number = to_safe_integer(value, what);
  if (number != clamp_to_int(number)) {
    throw_range_error(value.Env(), std::string(what) + " must be between " +
                                       std::to_string(std::numeric_limits<int>::min()) + " and " +
                                       std::to_string(std::numeric_limits<int>::max()) + ", got " +
                                       std::to_string(number));
  }
  return static_cast<int>(number);
}

int to_clamped_int(Napi::Value value, const char* what) {
  return clamp_to_int(to_safe_integer(value, what));
}

Utf8::Utf8(Napi::Value string) {
  napi_env env = string.Env();
  std::size_t length = 0;
  if (napi_get_value_string_utf8(env, string, inline_.data(), inline_.size(), &length) != napi_ok) {
    throw Napi::Error::New(env);
  }
  // A cut-short copy stops less than one UTF-8 sequence (4 bytes) before the
  // end of the buffer, so anything shorter is the whole string.
  if (length + 5 < inline_.size()) {
    view_ = std::string_view(inline_.data(), length);
    return;
  }
  if (napi_get_value_string_utf8(env, string, nullptr, 0, &length) != napi_ok) {
    throw Napi::Error::New(env);
  }
  heap_.resize(length + 1);
  if (napi_get_value_string_utf8(env, string, heap_.data(), heap_.size(), &length) != napi_ok) {
    throw Napi::Error::New(env);
  }
  view_ = std::string_view(heap_.data(), length);
}

Napi::Array own_string_keys(const Napi::Object& object) {
  const Napi::Env env = object.Env();
  napi_value names = nullptr;
  if (napi_get_all_property_names(
          env, object, napi_key_own_only,
          static_cast<napi_key_filter>(napi_key_enumerable | napi_key_skip_symbols),
          napi_key_numbers_to_strings, &names) != napi_ok) {
    throw Napi::Error::New(env);
  }
  return {env, names};
}

std::optional<std::map<int, std::int64_t>> to_offsets(Napi::Value offsets, const char* what) {
  if (offsets.IsUndefined() || offsets.IsNull()) return std::nullopt;
  const Napi::Env env = offsets.Env();
  const auto not_plain = [&] {
    throw_type_error(env,
                     std::string(what) +
                         " must be a plain object such as { 0: 5, 1: 2 } (or undefined), got " +
                         describe_type(offsets));
  };
  if (offsets.Type() != napi_object || offsets.IsArray()) not_plain();
  const auto object = offsets.As<Napi::Object>();

  napi_value prototype = nullptr;
  if (napi_get_prototype(env, object, &prototype) != napi_ok) throw Napi::Error::New(env);
  const Napi::Value prototype_value(env, prototype);
  if (!prototype_value.IsNull() &&
      !prototype_value.StrictEquals(addon_state(env).object_prototype.Value())) {
    not_plain();
  }

  const Napi::Array keys = own_string_keys(object);

  // Types first: every value must be a number.
  std::vector<std::pair<std::string, Napi::Value>> entries;
  entries.reserve(keys.Length());
  for (std::uint32_t i = 0; i < keys.Length(); ++i) {
    const Napi::Value key = keys.Get(i);
    const Napi::Value value = object.Get(key);
    std::string key_text = key.As<Napi::String>().Utf8Value();
    if (!value.IsNumber()) {
      throw_type_error(env, std::string(what) + "[\"" + key_text +
                                "\"] must be a number (an offset), got " + describe_type(value));
    }
    entries.emplace_back(std::move(key_text), value);
  }

  // Then the values: decimal integer keys, safe integer offsets.
  std::map<int, std::int64_t> result;
  for (const auto& [key_text, value] : entries) {
    const std::optional<int> partition = parse_partition_key(key_text);
    if (!partition) {
      throw_range_error(env, std::string(what) + " key \"" + key_text +
                                 "\" is not a partition number (the decimal form of an integer)");
    }
    const std::string offset_what = std::string(what) + "[\"" + key_text + "\"]";
    result[*partition] = to_safe_integer(value, offset_what.c_str());
  }
  return result;
}

}  // namespace kgroups::node
