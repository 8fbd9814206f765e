// SPDX-License-Identifier: Apache-2.0
//
// The Topic options argument; see topic_options_arg.h.
#include "topic_options_arg.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>

#include "convert.h"
#include "errors.h"

namespace kgroups::node {
namespace {

struct TextOption {
  std::string_view js_name;   // the field of the JS options object
  std::string_view cpp_name;  // the TopicOptions member, as the engine names it
  std::string TopicOptions::*member;
};

struct NumberOption {
  std::string_view js_name;
  std::string_view cpp_name;
  std::int64_t TopicOptions::*int64_member;  // set for an std::int64_t member
  int TopicOptions::*int_member;             // set for an int member
};

// In SPEC.md's order, which is the order they are checked in: the text options, then the
// share groups' numbers.
const std::array<TextOption, 4> kTextOptions{{
    {"partitioner", "partitioner", &TopicOptions::partitioner},
    {"assignor", "assignor", &TopicOptions::assignor},
    {"autoOffsetReset", "auto_offset_reset", &TopicOptions::auto_offset_reset},
    {"shareAutoOffsetReset", "share_auto_offset_reset", &TopicOptions::share_auto_offset_reset},
}};

const std::array<NumberOption, 3> kNumberOptions{{
    {"recordLockDurationMs", "record_lock_duration_ms", &TopicOptions::record_lock_duration_ms,
     nullptr},
    {"deliveryCountLimit", "delivery_count_limit", nullptr, &TopicOptions::delivery_count_limit},
    {"partitionMaxRecordLocks", "partition_max_record_locks", nullptr,
     &TopicOptions::partition_max_record_locks},
}};

// Every option's (js_name, cpp_name), the longer C++ names first: "auto_offset_reset" is
// part of "share_auto_offset_reset", so that one must be renamed first.
std::array<std::pair<std::string_view, std::string_view>, 7> all_names() {
  return {{
      {kTextOptions[3].js_name, kTextOptions[3].cpp_name},
      {kTextOptions[0].js_name, kTextOptions[0].cpp_name},
      {kTextOptions[1].js_name, kTextOptions[1].cpp_name},
      {kTextOptions[2].js_name, kTextOptions[2].cpp_name},
      {kNumberOptions[0].js_name, kNumberOptions[0].cpp_name},
      {kNumberOptions[1].js_name, kNumberOptions[1].cpp_name},
      {kNumberOptions[2].js_name, kNumberOptions[2].cpp_name},
  }};
}

std::string field_list() {
  std::string list;
  for (const TextOption& field : kTextOptions) {
    if (!list.empty()) list += ", ";
    list += field.js_name;
  }
  for (const NumberOption& field : kNumberOptions) {
    list += ", ";
    list += field.js_name;
  }
  return list;
}

// Throws a TypeError if the object has an own enumerable string-keyed field
// that is not an option.
void check_no_unknown_fields(const Napi::Object& object, const char* what) {
  const Napi::Env env = object.Env();
  const Napi::Array keys = own_string_keys(object);
  for (std::uint32_t i = 0; i < keys.Length(); ++i) {
    const std::string key = keys.Get(i).As<Napi::String>().Utf8Value();
    bool known = false;
    for (const auto& [js_name, cpp_name] : all_names()) known = known || key == js_name;
    if (known) continue;
    std::string message =
        std::string(what) + " has no field \"" + key + "\" (its fields: " + field_list() + ")";
    for (const auto& [js_name, cpp_name] : all_names()) {
      if (key == cpp_name && key != js_name)
        message += "; in JavaScript it is spelled " + std::string(js_name);
    }
    throw_type_error(env, message);
  }
}

std::string field_what(const char* what, std::string_view js_name) {
  return std::string(what) + "." + std::string(js_name);
}

}  // namespace

TopicOptions to_topic_options(Napi::Value options, const char* what) {
  TopicOptions result;
  if (options.IsUndefined() || options.IsNull()) return result;
  if (options.Type() != napi_object || options.IsArray()) {
    throw_type_error(options.Env(), std::string(what) +
                                        " must be an object such as { assignor: \"sticky\" } (or "
                                        "undefined), got " +
                                        describe_type(options));
  }
  const auto object = options.As<Napi::Object>();
  check_no_unknown_fields(object, what);
  // Types first, in order; then the numbers' values.
  std::array<Napi::Value, kNumberOptions.size()> numbers;
  for (const TextOption& field : kTextOptions) {
    const Napi::Value value = object.Get(std::string(field.js_name));
    if (value.IsUndefined()) continue;
    check_string(value, field_what(what, field.js_name).c_str());
    result.*field.member = value.As<Napi::String>().Utf8Value();
  }
  for (std::size_t i = 0; i < kNumberOptions.size(); ++i) {
    numbers[i] = object.Get(std::string(kNumberOptions[i].js_name));
    if (numbers[i].IsUndefined()) continue;
    check_number(numbers[i], field_what(what, kNumberOptions[i].js_name).c_str());
  }
  for (std::size_t i = 0; i < kNumberOptions.size(); ++i) {
    if (numbers[i].IsUndefined()) continue;
    const NumberOption& field = kNumberOptions[i];
    const std::string name = field_what(what, field.js_name);
    if (field.int64_member != nullptr) {
      result.*field.int64_member = to_safe_integer(numbers[i], name.c_str());
    } else {
      result.*field.int_member = to_int(numbers[i], name.c_str());
    }
  }
  return result;
}

std::string js_option_names(std::string message) {
  for (const auto& [js_name, cpp_name] : all_names()) {
    if (js_name == cpp_name) continue;
    for (std::size_t at = message.find(cpp_name); at != std::string::npos;
         at = message.find(cpp_name, at + js_name.size())) {
      message.replace(at, cpp_name.size(), js_name);
    }
  }
  return message;
}

}  // namespace kgroups::node
