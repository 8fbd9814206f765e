// SPDX-License-Identifier: Apache-2.0
//
// The Topic options argument; see topic_options_arg.h.
#include "topic_options_arg.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "convert.h"
#include "errors.h"

namespace kgroups::node {
namespace {

struct OptionField {
  std::string_view js_name;   // the field of the JS options object
  std::string_view cpp_name;  // the TopicOptions member, as the engine names it
  std::string TopicOptions::*member;
};

// In SPEC.md's table order, which is the order they are checked in.
const std::array<OptionField, 3> kOptionFields{{
    {"partitioner", "partitioner", &TopicOptions::partitioner},
    {"assignor", "assignor", &TopicOptions::assignor},
    {"autoOffsetReset", "auto_offset_reset", &TopicOptions::auto_offset_reset},
}};

std::string field_list() {
  std::string list;
  for (const OptionField& field : kOptionFields) {
    if (!list.empty()) list += ", ";
    list += field.js_name;
  }
  return list;
}

// Throws a TypeError if the object has an own enumerable string-keyed field
// that is not one of kOptionFields.
void check_no_unknown_fields(const Napi::Object& object, const char* what) {
  const Napi::Env env = object.Env();
  const Napi::Array keys = own_string_keys(object);
  for (std::uint32_t i = 0; i < keys.Length(); ++i) {
    const std::string key = keys.Get(i).As<Napi::String>().Utf8Value();
    bool known = false;
    for (const OptionField& field : kOptionFields) known = known || key == field.js_name;
    if (known) continue;
    std::string message =
        std::string(what) + " has no field \"" + key + "\" (its fields: " + field_list() + ")";
    for (const OptionField& field : kOptionFields) {
      if (key == field.cpp_name)
        message += "; in JavaScript it is spelled " + std::string(field.js_name);
    }
    throw_type_error(env, message);
  }
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
  for (const OptionField& field : kOptionFields) {
    const Napi::Value value = object.Get(std::string(field.js_name));
    if (value.IsUndefined()) continue;
    const std::string field_what = std::string(what) + "." + std::string(field.js_name);
    check_string(value, field_what.c_str());
    result.*field.member = value.As<Napi::String>().Utf8Value();
  }
  return result;
}

std::string js_option_names(std::string message) {
  for (const OptionField& field : kOptionFields) {
    if (field.js_name == field.cpp_name) continue;
    for (std::size_t at = message.find(field.cpp_name); at != std::string::npos;
         at = message.find(field.cpp_name, at + field.js_name.size())) {
      message.replace(at, field.cpp_name.size(), field.js_name);
    }
  }
  return message;
}

}  // namespace kgroups::node
