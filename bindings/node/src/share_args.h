// SPDX-License-Identifier: Apache-2.0
//
// The share-group arguments and results of NativeTopic (SPEC.md, "Share groups"):
// acknowledge's type (a string: "accept", "release" or "reject") and records (an array
// of [partition, offset] pairs), and sharePartitionState's object. Types are checked
// first (TypeError), then values (RangeError), as convert.h does. Used on the JS thread
// only.
#pragma once

#include <napi.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "kgroups/share_record.h"
#include "kgroups/topic.h"

namespace kgroups::node {

// Throws a TypeError unless `type` is a string.
void check_acknowledge_type(Napi::Value type);

// "accept" -> kAccept, "release" -> kRelease, "reject" -> kReject; a RangeError naming
// the choices for any other string (checked by check_acknowledge_type first).
[[nodiscard]] AcknowledgeType to_acknowledge_type(Napi::Value type);

// Throws a TypeError unless `records` is an array of [partition, offset] arrays of two
// numbers.
void check_acknowledge_records(Napi::Value records);

struct AcknowledgeRecords {
  // The pairs in order; a partition beyond the int range is clamped to it (no topic has
  // partition INT_MAX, so such a record is never held).
  std::vector<std::pair<int, std::int64_t>> records;
  std::vector<double> partitions;  // the partitions as given, in the same order
};

// The pairs of an array checked by check_acknowledge_records. Throws a RangeError for a
// number that is not a safe integer.
[[nodiscard]] AcknowledgeRecords to_acknowledge_records(Napi::Value records);

// Rethrows the engine's NotAcquiredError being handled, naming the partition as the
// caller gave it where the binding clamped it. Call only inside a catch block.
[[noreturn]] void rethrow_not_acquired(Napi::Env env, const AcknowledgeRecords& given);

// { startOffset, endOffset, available, acquired, acknowledged, archived, deliveries,
// redeliveries }: numbers, in that order.
[[nodiscard]] Napi::Object share_partition_state_to_js(Napi::Env env,
                                                       const Topic::SharePartitionState& state);

}  // namespace kgroups::node
