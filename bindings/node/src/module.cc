// SPDX-License-Identifier: Apache-2.0
//
// Registration of the kgroups addon: exports NativeTopic, partitionFor and
// setErrorClasses, and sets up the per-environment AddonState. index.js is the
// only intended caller. Safe to load in several environments (worker threads):
// each gets its own state.
#include <napi.h>

#include "addon_state.h"
#include "convert.h"
#include "errors.h"
#include "key_value.h"
#include "kgroups/partitioner.h"
#include "topic_wrap.h"

namespace kgroups::node {
namespace {

// partitionFor(key, numPartitions) -> partition.
Napi::Value partition_for_js(const Napi::CallbackInfo& info) {
  return call_guarded(info.Env(), [&]() -> Napi::Value {
    const Encoding encoding = check_key_value(info[0], "partitionFor: key");
    check_number(info[1], "partitionFor: numPartitions");
    const int num_partitions = to_int(info[1], "partitionFor: numPartitions");
    const KeyValueArg key(info[0], encoding);
    return Napi::Number::New(info.Env(), partition_for(key.bytes(), num_partitions));
  });
}

// setErrorClasses({ NotAssignedError }): the JS class to throw for
// kgroups::NotAssignedError, constructed as new NotAssignedError(message, partition).
Napi::Value set_error_classes(const Napi::CallbackInfo& info) {
  const Napi::Value classes = info[0];
  if (!classes.IsObject()) {
    throw_type_error(info.Env(), "setErrorClasses: expected { NotAssignedError }");
  }
  const Napi::Value not_assigned = classes.As<Napi::Object>().Get("NotAssignedError");
  if (!not_assigned.IsFunction()) {
    throw_type_error(info.Env(), "setErrorClasses: NotAssignedError must be a class");
  }
  addon_state(info.Env()).not_assigned_error = Napi::Persistent(not_assigned.As<Napi::Function>());
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
