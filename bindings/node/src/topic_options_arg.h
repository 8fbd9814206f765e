// SPDX-License-Identifier: Apache-2.0
//
// The options object of `new Topic(numPartitions, options)` (SPEC.md,
// "Options" and "Share groups"): { partitioner, assignor, autoOffsetReset,
// shareAutoOffsetReset } (strings) and { recordLockDurationMs, deliveryCountLimit,
// partitionMaxRecordLocks } (numbers), each undefined for its default. Only types
// are checked here, and that a number is an integer the C++ field holds; the engine's
// constructor rejects a value that is no known choice or out of range
// (std::invalid_argument), and js_option_names gives its message the JS spelling of the
// names.
// Used on the JS thread only.
#pragma once

#include <napi.h>

#include <string>

#include "kgroups/topic_options.h"

namespace kgroups::node {

// The TopicOptions an options argument asks for. undefined and null give the
// defaults, as does a missing or undefined field. Throws a TypeError for any
// other non-object (an array or a function included), a field that is not of its
// type (string or number) nor undefined, or an own field the options do not have (a
// typo or the C++/Python spelling auto_offset_reset would otherwise be ignored); then
// a RangeError for a number that is not a safe integer (deliveryCountLimit and
// partitionMaxRecordLocks: not between INT_MIN and INT_MAX).
// `what` names the argument, e.g. "Topic: options".
[[nodiscard]] TopicOptions to_topic_options(Napi::Value options, const char* what);

// An engine message with the options' C++ names in their JS spelling
// ("auto_offset_reset" -> "autoOffsetReset", "delivery_count_limit" ->
// "deliveryCountLimit").
[[nodiscard]] std::string js_option_names(std::string message);

}  // namespace kgroups::node
