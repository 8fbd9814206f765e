// SPDX-License-Identifier: Apache-2.0
//
// Builds JS arrays with Array.prototype.push; see js_array.h.
#include "js_array.h"

#include <algorithm>
#include <cstddef>

#include "addon_state.h"

namespace kgroups::node {
namespace {

// Values per push call: far below V8's argument limits and stack size.
constexpr std::size_t kPushChunk = 8192;

}  // namespace

Napi::Array new_js_array(Napi::Env env, std::span<const napi_value> values) {
  napi_value array = nullptr;
  if (napi_create_array(env, &array) != napi_ok) throw Napi::Error::New(env);
  napi_value push = addon_state(env).array_push.Value();
  for (std::size_t start = 0; start < values.size(); start += kPushChunk) {
    const std::size_t count = std::min(kPushChunk, values.size() - start);
    if (napi_call_function(env, array, push, count, values.data() + start, nullptr) != napi_ok) {
      throw Napi::Error::New(env);
    }
  }
  return {env, array};
}

}  // namespace kgroups::node
