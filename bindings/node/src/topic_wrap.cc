// SPDX-License-Identifier: Apache-2.0
//
// NativeTopic's methods: check argument types, convert, call the engine.
#include "topic_wrap.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>

#include "convert.h"
#include "errors.h"
#include "js_array.h"
#include "key_value.h"
#include "kgroups/errors.h"
#include "rebalance_history.h"
#include "record_batch.h"
#include "share_args.h"
#include "topic_options_arg.h"

namespace kgroups::node {

Napi::Function TopicWrap::define_class(Napi::Env env) {
  return DefineClass(env, "NativeTopic",
                     {
                         InstanceMethod<&TopicWrap::append>("append"),
                         InstanceMethod<&TopicWrap::end_offset>("endOffset"),
                         InstanceMethod<&TopicWrap::join>("join"),
                         InstanceMethod<&TopicWrap::leave>("leave"),
                         InstanceMethod<&TopicWrap::assignment>("assignment"),
                         InstanceMethod<&TopicWrap::poll>("poll"),
                         InstanceMethod<&TopicWrap::commit>("commit"),
                         InstanceMethod<&TopicWrap::committed>("committed"),
                         InstanceMethod<&TopicWrap::lag>("lag"),
                         InstanceMethod<&TopicWrap::rebalances>("rebalances"),
                         InstanceMethod<&TopicWrap::share_join>("shareJoin"),
                         InstanceMethod<&TopicWrap::share_leave>("shareLeave"),
                         InstanceMethod<&TopicWrap::share_assignment>("shareAssignment"),
                         InstanceMethod<&TopicWrap::share_poll>("sharePoll"),
                         InstanceMethod<&TopicWrap::acknowledge>("acknowledge"),
                         InstanceMethod<&TopicWrap::advance_clock>("advanceClock"),
                         InstanceMethod<&TopicWrap::clock>("clock"),
                         InstanceMethod<&TopicWrap::share_start_offset>("shareStartOffset"),
                         InstanceMethod<&TopicWrap::share_partition_state>("sharePartitionState"),
                         InstanceMethod<&TopicWrap::close>("close"),
                     });
}

TopicWrap::TopicWrap(const Napi::CallbackInfo& info) : Napi::ObjectWrap<TopicWrap>(info) {
  call_guarded(info.Env(), [&] {
    // Types first (numPartitions, then the options), then the values.
    check_number(info[0], "Topic: numPartitions");
    const TopicOptions options = to_topic_options(info[1], "Topic: options");
    const int num_partitions = to_int(info[0], "Topic: numPartitions");
    try {
      topic_.emplace(num_partitions, options);
    } catch (const std::invalid_argument& error) {
      throw_range_error(info.Env(), js_option_names(error.what()));
    }
    const Napi::Value slots = info[2];
    if (!slots.IsTypedArray() ||
        slots.As<Napi::TypedArray>().TypedArrayType() != napi_float64_array ||
        slots.As<Napi::Float64Array>().ElementLength() < 2) {
      throw_type_error(info.Env(), "NativeTopic: expected a Float64Array(2) for append's results");
    }
    append_result_ = slots.As<Napi::Float64Array>().Data();
    append_result_reference_ = Napi::Persistent(slots.As<Napi::Float64Array>());
  });
}

Topic& TopicWrap::engine(Napi::Env env) {
  if (!topic_) {
    throw Napi::Error::New(env,
                           "Topic is closed: close() freed its records and groups; make a new "
                           "Topic to go on");
  }
  return *topic_;
}

Napi::Value TopicWrap::close(const Napi::CallbackInfo& info) {
  topic_.reset();
  key_strings_.reset();
  value_strings_.reset();
  poll_batch_.release();
  return info.Env().Undefined();
}

Napi::Value TopicWrap::append(const Napi::CallbackInfo& info) {
  return call_guarded(info.Env(), [&]() -> Napi::Value {
    const CheckedKeyValue checked_key = check_key_value(info[0], "append: key");
    const CheckedKeyValue checked_value = check_key_value(info[1], "append: value");
    const KeyValueArg key(info[0], checked_key);
    const KeyValueArg value(info[1], checked_value);
    const auto [partition, offset] =
        engine(info.Env()).append(key.bytes(), value.bytes(), key.encoding(), value.encoding());
    append_result_[0] = partition;
    append_result_[1] = static_cast<double>(offset);
    return info.Env().Undefined();
  });
}

Napi::Value TopicWrap::end_offset(const Napi::CallbackInfo& info) {
  return call_guarded(info.Env(), [&]() -> Napi::Value {
    check_number(info[0], "endOffset: partition");
    const int partition = to_clamped_int(info[0], "endOffset: partition");
    return Napi::Number::New(info.Env(),
                             static_cast<double>(engine(info.Env()).end_offset(partition)));
  });
}

Napi::Value TopicWrap::join(const Napi::CallbackInfo& info) {
  return call_guarded(info.Env(), [&]() -> Napi::Value {
    check_string(info[0], "join: group");
    check_string(info[1], "join: consumerId");
    engine(info.Env()).join(Utf8(info[0]).view(), Utf8(info[1]).view());
    return info.Env().Undefined();
  });
}

Napi::Value TopicWrap::leave(const Napi::CallbackInfo& info) {
  return call_guarded(info.Env(), [&]() -> Napi::Value {
    check_string(info[0], "leave: group");
    check_string(info[1], "leave: consumerId");
    engine(info.Env()).leave(Utf8(info[0]).view(), Utf8(info[1]).view());
    return info.Env().Undefined();
  });
}

Napi::Value TopicWrap::assignment(const Napi::CallbackInfo& info) {
  return call_guarded(info.Env(), [&]() -> Napi::Value {
    check_string(info[0], "assignment: group");
    check_string(info[1], "assignment: consumerId");
    const std::vector<int> partitions =
        engine(info.Env()).assignment(Utf8(info[0]).view(), Utf8(info[1]).view());
    std::vector<napi_value> result;
    result.reserve(partitions.size());
    for (const int partition : partitions) {
      result.push_back(Napi::Number::New(info.Env(), partition));
    }
    return new_js_array(info.Env(), result);
  });
}

Napi::Value TopicWrap::poll(const Napi::CallbackInfo& info) {
  return call_guarded(info.Env(), [&]() -> Napi::Value {
    check_string(info[0], "poll: group");
    check_string(info[1], "poll: consumerId");
    const bool has_max = !info[2].IsUndefined();
    if (has_max) check_number(info[2], "poll: maxRecords");
    const int max_records =
        has_max ? to_clamped_int(info[2], "poll: maxRecords") : kDefaultMaxRecords;
    const std::vector<Record> records =
        engine(info.Env()).poll(Utf8(info[0]).view(), Utf8(info[1]).view(), max_records);
    return batch_of(info.Env(), records);
  });
}

Napi::Value TopicWrap::batch_of(Napi::Env env, const std::vector<Record>& records) {
  if (!key_strings_) {
    key_strings_ = std::make_unique<PollStrings>(0);
    value_strings_ = std::make_unique<PollStrings>(PollStrings::kMaxEntries);
  }
  return poll_batch_.encode(env, records, *key_strings_, *value_strings_);
}

Napi::Value TopicWrap::commit(const Napi::CallbackInfo& info) {
  return call_guarded(info.Env(), [&]() -> Napi::Value {
    check_string(info[0], "commit: group");
    check_string(info[1], "commit: consumerId");
    const auto offsets = to_offsets(info[2], "commit: offsets");
    const Utf8 group(info[0]);
    const Utf8 consumer(info[1]);
    if (offsets) {
      engine(info.Env()).commit(group.view(), consumer.view(), *offsets);
    } else {
      engine(info.Env()).commit(group.view(), consumer.view());
    }
    return info.Env().Undefined();
  });
}

Napi::Value TopicWrap::committed(const Napi::CallbackInfo& info) {
  return call_guarded(info.Env(), [&]() -> Napi::Value {
    check_string(info[0], "committed: group");
    check_number(info[1], "committed: partition");
    const int partition = to_clamped_int(info[1], "committed: partition");
    return Napi::Number::New(
        info.Env(),
        static_cast<double>(engine(info.Env()).committed(Utf8(info[0]).view(), partition)));
  });
}

Napi::Value TopicWrap::lag(const Napi::CallbackInfo& info) {
  return call_guarded(info.Env(), [&]() -> Napi::Value {
    check_string(info[0], "lag: group");
    const std::map<int, std::int64_t> lags = engine(info.Env()).lag(Utf8(info[0]).view());
    Napi::Object result = Napi::Object::New(info.Env());
    for (const auto& [partition, lag] : lags) {
      result.Set(static_cast<std::uint32_t>(partition),
                 Napi::Number::New(info.Env(), static_cast<double>(lag)));
    }
    return result;
  });
}

Napi::Value TopicWrap::rebalances(const Napi::CallbackInfo& info) {
  return call_guarded(info.Env(), [&]() -> Napi::Value {
    check_string(info[0], "rebalances: group");
    return rebalances_to_js(info.Env(), engine(info.Env()).rebalances(Utf8(info[0]).view()));
  });
}

Napi::Value TopicWrap::share_join(const Napi::CallbackInfo& info) {
  return call_guarded(info.Env(), [&]() -> Napi::Value {
    check_string(info[0], "shareJoin: group");
    check_string(info[1], "shareJoin: memberId");
    engine(info.Env()).share_join(Utf8(info[0]).view(), Utf8(info[1]).view());
    return info.Env().Undefined();
  });
}

Napi::Value TopicWrap::share_leave(const Napi::CallbackInfo& info) {
  return call_guarded(info.Env(), [&]() -> Napi::Value {
    check_string(info[0], "shareLeave: group");
    check_string(info[1], "shareLeave: memberId");
    engine(info.Env()).share_leave(Utf8(info[0]).view(), Utf8(info[1]).view());
    return info.Env().Undefined();
  });
}

Napi::Value TopicWrap::share_assignment(const Napi::CallbackInfo& info) {
  return call_guarded(info.Env(), [&]() -> Napi::Value {
    check_string(info[0], "shareAssignment: group");
    check_string(info[1], "shareAssignment: memberId");
    const std::vector<int> partitions =
        engine(info.Env()).share_assignment(Utf8(info[0]).view(), Utf8(info[1]).view());
    std::vector<napi_value> result;
    result.reserve(partitions.size());
    for (const int partition : partitions) {
      result.push_back(Napi::Number::New(info.Env(), partition));
    }
    return new_js_array(info.Env(), result);
  });
}

Napi::Value TopicWrap::share_poll(const Napi::CallbackInfo& info) {
  return call_guarded(info.Env(), [&]() -> Napi::Value {
    check_string(info[0], "sharePoll: group");
    check_string(info[1], "sharePoll: memberId");
    const bool has_max = !info[2].IsUndefined();
    if (has_max) check_number(info[2], "sharePoll: maxRecords");
    const int max_records =
        has_max ? to_clamped_int(info[2], "sharePoll: maxRecords") : kDefaultMaxRecords;
    const std::vector<ShareRecord> acquired =
        engine(info.Env()).share_poll(Utf8(info[0]).view(), Utf8(info[1]).view(), max_records);
    std::vector<Record> records;
    records.reserve(acquired.size());
    auto delivery_counts = Napi::Int32Array::New(info.Env(), acquired.size());
    for (std::size_t i = 0; i < acquired.size(); ++i) {
      records.push_back(acquired[i].record);
      delivery_counts[i] = acquired[i].delivery_count;
    }
    const Napi::Value batch = batch_of(info.Env(), records);
    const napi_value pair[] = {batch, delivery_counts};
    return new_js_array(info.Env(), pair);
  });
}

Napi::Value TopicWrap::acknowledge(const Napi::CallbackInfo& info) {
  return call_guarded(info.Env(), [&]() -> Napi::Value {
    check_string(info[0], "acknowledge: group");
    check_string(info[1], "acknowledge: memberId");
    // acknowledge(group, memberId, type): the type third and nothing fourth.
    const bool type_third = info[2].IsString() && info[3].IsUndefined();
    const Napi::Value records = type_third ? info.Env().Undefined() : info[2];
    const Napi::Value type = type_third ? info[2] : info[3];
    const bool implicit = records.IsUndefined() || records.IsNull();
    check_acknowledge_type(type);
    if (!implicit) check_acknowledge_records(records);
    const AcknowledgeType checked_type = to_acknowledge_type(type);
    const Utf8 group(info[0]);
    const Utf8 member(info[1]);
    if (implicit) {
      engine(info.Env()).acknowledge(group.view(), member.view(), checked_type);
    } else {
      const AcknowledgeRecords given = to_acknowledge_records(records);
      try {
        engine(info.Env()).acknowledge(group.view(), member.view(), given.records, checked_type);
      } catch (const kgroups::NotAcquiredError&) {
        rethrow_not_acquired(info.Env(), given);
      }
    }
    return info.Env().Undefined();
  });
}

Napi::Value TopicWrap::advance_clock(const Napi::CallbackInfo& info) {
  return call_guarded(info.Env(), [&]() -> Napi::Value {
    check_number(info[0], "advanceClock: ms");
    engine(info.Env()).advance_clock(to_safe_integer(info[0], "advanceClock: ms"));
    return info.Env().Undefined();
  });
}

Napi::Value TopicWrap::clock(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), static_cast<double>(engine(info.Env()).clock()));
}

Napi::Value TopicWrap::share_start_offset(const Napi::CallbackInfo& info) {
  return call_guarded(info.Env(), [&]() -> Napi::Value {
    check_string(info[0], "shareStartOffset: group");
    check_number(info[1], "shareStartOffset: partition");
    const int partition = to_clamped_int(info[1], "shareStartOffset: partition");
    return Napi::Number::New(
        info.Env(), static_cast<double>(
                        engine(info.Env()).share_start_offset(Utf8(info[0]).view(), partition)));
  });
}

Napi::Value TopicWrap::share_partition_state(const Napi::CallbackInfo& info) {
  return call_guarded(info.Env(), [&]() -> Napi::Value {
    check_string(info[0], "sharePartitionState: group");
    check_number(info[1], "sharePartitionState: partition");
    const int partition = to_clamped_int(info[1], "sharePartitionState: partition");
    return share_partition_state_to_js(
        info.Env(), engine(info.Env()).share_partition_state(Utf8(info[0]).view(), partition));
  });
}

}  // namespace kgroups::node
