// SPDX-License-Identifier: Apache-2.0
//
// new_js_array: a JS array of given values in few Node-API calls. Setting
// elements one by one (napi_set_element) costs several hundred nanoseconds
// each on Node 20; calling Array.prototype.push with many arguments costs one
// call per chunk of values. Used on the JS thread only.
#pragma once

#include <napi.h>

#include <span>

namespace kgroups::node {

// A new array holding `values` in order.
[[nodiscard]] Napi::Array new_js_array(Napi::Env env, std::span<const napi_value> values);

}  // namespace kgroups::node
