// SPDX-License-Identifier: Apache-2.0
//
// The options object of `new Topic(numPartitions, options)` (SPEC.md,
// "Options"): { partitioner, assignor, autoOffsetReset }, each a string or
// undefined (its default). Only types are checked here; the engine's
// constructor rejects a value that is no known choice (std::invalid_argument),
// and js_option_names gives its message the JS spelling of the names.
// Used on the JS thread only.
#pragma once

#include <napi.h>

#include <string>

#include "kgroups/topic_options.h"

namespace kgroups::node {

// The TopicOptions an options argument asks for. undefined and null give the
// defaults, as does a missing or undefined field. Throws a TypeError for any
// other non-object (an array or a function included), a field that is neither
// a string nor undefined, or an own field the options do not have (a typo or
// the C++/Python spelling auto_offset_reset would otherwise be ignored).
// `what` names the argument, e.g. "Topic: options".
[[nodiscard]] TopicOptions to_topic_options(Napi::Value options, const char* what);

// An engine message with the options' C++ names in their JS spelling
// ("auto_offset_reset" -> "autoOffsetReset").
[[nodiscard]] std::string js_option_names(std::string message);

}  // namespace kgroups::node
