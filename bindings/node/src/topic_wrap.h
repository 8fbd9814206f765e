// SPDX-License-Identifier: Apache-2.0
//
// TopicWrap: the native class NativeTopic, one kgroups::Topic per JS object.
// It converts arguments, calls the engine through call_guarded and converts the
// results; topic.js wraps it as the public Topic class of SPEC.md. No rules
// here: the engine checks ranges, membership and offsets.
// Used on the JS thread that created it; the engine itself is thread-safe.
#pragma once

#include <napi.h>

#include <memory>
#include <optional>
#include <vector>

#include "kgroups/topic.h"
#include "poll_strings.h"
#include "record_batch.h"

namespace kgroups::node {

class TopicWrap : public Napi::ObjectWrap<TopicWrap> {
 public:
  // The NativeTopic constructor function, to export.
  static Napi::Function define_class(Napi::Env env);

  // new NativeTopic(numPartitions, options, appendResult): options as
  // topic_options_arg.h takes them; appendResult is a Float64Array(2) into
  // which append writes [partition, offset]; topic.js makes the array it
  // returns from there, which is cheaper than making it here.
  explicit TopicWrap(const Napi::CallbackInfo& info);

 private:
  Napi::Value append(const Napi::CallbackInfo& info);
  Napi::Value end_offset(const Napi::CallbackInfo& info);
  Napi::Value join(const Napi::CallbackInfo& info);
  Napi::Value leave(const Napi::CallbackInfo& info);
  Napi::Value assignment(const Napi::CallbackInfo& info);
  Napi::Value poll(const Napi::CallbackInfo& info);
  Napi::Value commit(const Napi::CallbackInfo& info);
  Napi::Value committed(const Napi::CallbackInfo& info);
  Napi::Value lag(const Napi::CallbackInfo& info);
  Napi::Value rebalances(const Napi::CallbackInfo& info);

  // Share groups (SPEC.md, "Share groups"). sharePoll returns [batch, deliveryCounts]:
  // the records as poll's batch (record_batch.h) and an Int32Array of their delivery
  // counts in the same order. acknowledge(group, memberId, records, type) or
  // acknowledge(group, memberId, type) (records undefined or null: all it holds).
  Napi::Value share_join(const Napi::CallbackInfo& info);
  Napi::Value share_leave(const Napi::CallbackInfo& info);
  Napi::Value share_assignment(const Napi::CallbackInfo& info);
  Napi::Value share_poll(const Napi::CallbackInfo& info);
  Napi::Value acknowledge(const Napi::CallbackInfo& info);
  Napi::Value advance_clock(const Napi::CallbackInfo& info);
  Napi::Value clock(const Napi::CallbackInfo& info);
  Napi::Value share_start_offset(const Napi::CallbackInfo& info);
  Napi::Value share_partition_state(const Napi::CallbackInfo& info);

  // close(): frees the engine (its records, groups and share groups) and the poll
  // tables now, not when the garbage collector finalizes this object, so that the
  // memory goes back to the chunk supply warm for the next Topic. Idempotent.
  Napi::Value close(const Napi::CallbackInfo& info);

  // The engine; throws an Error saying the Topic is closed once close() ran.
  Topic& engine(Napi::Env env);

  // The records as a poll batch (record_batch.h), made with this Topic's
  // string tables and scratch.
  Napi::Value batch_of(Napi::Env env, const std::vector<Record>& records);

  std::optional<Topic> topic_;       // set by the constructor unless it throws
  double* append_result_ = nullptr;  // [partition, offset] of the last append
  Napi::Reference<Napi::Float64Array> append_result_reference_;  // keeps it alive
  std::unique_ptr<PollStrings> key_strings_;                     // made at the first poll
  std::unique_ptr<PollStrings> value_strings_;                   // made at the first poll
  PollBatch poll_batch_;
};

}  // namespace kgroups::node
