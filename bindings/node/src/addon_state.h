// SPDX-License-Identifier: Apache-2.0
//
// AddonState: what the addon keeps per Node environment (main thread or worker):
// the JS NotAssignedError, NoOffsetError and NotAcquiredError classes handed over by
// errors.js at load,
// Object.prototype, to tell a plain object from a Map or an array, and
// Array.prototype.push, to build arrays fast (js_array.h).
// Owned by the environment (Napi::Env instance data); used on its JS thread only.
#pragma once

#include <napi.h>

namespace kgroups::node {

struct AddonState {
  Napi::FunctionReference not_assigned_error;  // empty until setErrorClasses() runs
  Napi::FunctionReference no_offset_error;     // empty until setErrorClasses() runs
  Napi::FunctionReference not_acquired_error;  // empty until setErrorClasses() runs
  Napi::ObjectReference object_prototype;      // Object.prototype of this environment
  Napi::FunctionReference array_push;          // Array.prototype.push of this environment
};

// The environment's state. Valid while the environment lives.
inline AddonState& addon_state(Napi::Env env) { return *env.GetInstanceData<AddonState>(); }

}  // namespace kgroups::node
