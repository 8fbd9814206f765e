// SPDX-License-Identifier: Apache-2.0
//
// Registration of the kgroups addon: exports NativeTopic, partitionFor,
// setErrorClasses and pollStringSlots (the size of topic.js's string tables), and sets up the
// per-environment AddonState. index.js is the only intended caller. Safe to load in several
// environments (worker threads): each gets its own state.
#include <napi.h>

#include <string>
#include <utility>

#include "addon_state.h"
#include "convert.h"
#include "errors.h"
#include "key_value.h"
#include "kgroups/partitioner.h"
#include "poll_strings.h"
#include "topic_wrap.h"

namespace kgroups::node {
namespace {

// partitionFor(key, numPartitions, partitioner = "fnv1a") -> partition.
Napi::Value partition_for_js(const Napi::CallbackInfo& info) {
  return call_guarded(info.Env(), [&]() -> Napi::Value {
    const CheckedKeyValue checked = check_key_value(info[0], "partitionFor: key");
    check_number(info[1], "partitionFor: numPartitions");
    const bool has_partitioner = !info[2].IsUndefined();
    if (has_partitioner) check_string(info[2], "partitionFor: partitioner");
    const int num_partitions = to_int(info[1], "partitionFor: numPartitions");
    const KeyValueArg key(info[0], checked);
    if (!has_partitioner) {
      return Napi::Number::New(info.Env(), partition_for(key.bytes(), num_partitions));
    }
    const Utf8 partitioner(info[2]);
    return Napi::Number::New(info.Env(),
                             partition_for(key.bytes(), num_partitions, partitioner.view()));
  });
}

// setErrorClasses({ NotAssignedError, NoOffsetError, NotAcquiredError }): the JS
// classes to throw for kgroups::NotAssignedError, constructed as new
// NotAssignedError(message, partition), kgroups::NoOffsetError, as new
// NoOffsetError(message, partitions), and kgroups::NotAcquiredError, as new
// NotAcquiredError(message, partition, offset).
Napi::Value set_error_classes(const Napi::CallbackInfo& info) {
  const Napi::Value classes = info[0];
  if (!classes.IsObject()) {
    throw_type_error(info.Env(),
                     "setErrorClasses: expected { NotAssignedError, NoOffsetError, "
                     "NotAcquiredError }");
  }
  const auto error_class = [&](const char* name) {
    const Napi::Value value = classes.As<Napi::Object>().Get(name);
    if (!value.IsFunction()) {
      throw_type_error(info.Env(), std::string("setErrorClasses: ") + name + " must be a class");
    }
    return Napi::Persistent(value.As<Napi::Function>());
  };
  Napi::FunctionReference not_assigned = error_class("NotAssignedError");
  Napi::FunctionReference no_offset = error_class("NoOffsetError");
  Napi::FunctionReference not_acquired = error_class("NotAcquiredError");
  AddonState& state = addon_state(info.Env());
  state.not_assigned_error = std::move(not_assigned);
  state.no_offset_error = std::move(no_offset);
  state.not_acquired_error = std::move(not_acquired);
  return info.Env().Undefined();
}

}  // namespace

Napi::Object init(Napi::Env env, Napi::Object exports) {
  auto* state = new AddonState();
  env.SetInstanceData(state);
  const auto prototype_of = [&](const char* constructor) {
    return env.Global().Get(constructor).As<Napi::Object>().Get("prototype").As<Napi::Object>();
  };
  state->object_prototype = Napi::Persistent(prototype_of("Object"));
  state->array_push = Napi::Persistent(prototype_of("Array").Get("push").As<Napi::Function>());

  exports.Set("NativeTopic", TopicWrap::define_class(env));
  exports.Set("partitionFor", Napi::Function::New<partition_for_js>(env, "partitionFor"));
  exports.Set("pollStringSlots", Napi::Number::New(env, PollStrings::kSlotCount));
  exports.Set("setErrorClasses", Napi::Function::New<set_error_classes>(env, "setErrorClasses"));
  return exports;
}

}  // namespace kgroups::node

namespace {

Napi::Object init_kgroups_addon(Napi::Env env, Napi::Object exports) {
  return kgroups::node::init(env, exports);
}

}  // namespace

NODE_API_MODULE(kgroups, init_kgroups_addon)
