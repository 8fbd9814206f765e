// SPDX-License-Identifier: Apache-2.0
//
// acknowledge's arguments and sharePartitionState's result; see share_args.h.
#include "share_args.h"

#include <cstddef>
#include <string>
#include <string_view>

#include "kgroups/errors.h"

#include "convert.h"
#include "errors.h"

namespace kgroups::node {
namespace {

constexpr const char* kChoices = R"("accept", "release" or "reject")";

constexpr const char* kRecordsShape =
    "acknowledge: records must be an array of [partition, offset] pairs such as [[0, 5], [1, 2]]";

}  // namespace

void check_acknowledge_type(Napi::Value type) {
  if (!type.IsString()) {
    throw_type_error(type.Env(), std::string("acknowledge: type must be a string, ") + kChoices +
                                     ", got " + describe_type(type));
  }
}

AcknowledgeType to_acknowledge_type(Napi::Value type) {
  const std::string name = type.As<Napi::String>().Utf8Value();
  if (name == "accept") return AcknowledgeType::kAccept;
  if (name == "release") return AcknowledgeType::kRelease;
  if (name == "reject") return AcknowledgeType::kReject;
  throw_range_error(type.Env(),
                    "acknowledge: unknown type \"" + name + "\"; choose " + std::string(kChoices));
}

void check_acknowledge_records(Napi::Value records) {
  const Napi::Env env = records.Env();
  if (!records.IsArray()) {
    throw_type_error(env, std::string(kRecordsShape) + ", got " + describe_type(records));
  }
  const auto array = records.As<Napi::Array>();
  for (std::uint32_t i = 0; i < array.Length(); ++i) {
    const Napi::Value pair = array.Get(i);
    const bool well_formed = pair.IsArray() && pair.As<Napi::Array>().Length() == 2 &&
                             pair.As<Napi::Array>().Get(0u).IsNumber() &&
                             pair.As<Napi::Array>().Get(1u).IsNumber();
    if (!well_formed) {
      throw_type_error(env, std::string(kRecordsShape) + "; records[" + std::to_string(i) +
                                "] is not a pair of numbers (" + describe_type(pair) + ")");
    }
  }
}

AcknowledgeRecords to_acknowledge_records(Napi::Value records) {
  const auto array = records.As<Napi::Array>();
  AcknowledgeRecords result;
  result.records.reserve(array.Length());
  result.partitions.reserve(array.Length());
  for (std::uint32_t i = 0; i < array.Length(); ++i) {
    const auto pair = array.Get(i).As<Napi::Array>();
    const std::string what = "acknowledge: records[" + std::to_string(i) + "]";
    const int partition = to_clamped_int(pair.Get(0u), (what + "[0] (partition)").c_str());
    const std::int64_t offset = to_safe_integer(pair.Get(1u), (what + "[1] (offset)").c_str());
    result.records.emplace_back(partition, offset);
    result.partitions.push_back(pair.Get(0u).As<Napi::Number>().DoubleValue());
  }
  return result;
}

void rethrow_not_acquired(Napi::Env env, const AcknowledgeRecords& given) {
  try {
    throw;
  } catch (const kgroups::NotAcquiredError& error) {
    for (std::size_t i = 0; i < given.records.size(); ++i) {
      const auto [partition, offset] = given.records[i];
      if (partition != error.partition() || offset != error.offset() ||
          static_cast<double>(partition) == given.partitions[i]) {
        continue;
      }
      std::string message = error.what();
      const std::string engine_text = "partition " + std::to_string(partition) + " ";
      const std::size_t at = message.find(engine_text);
      const auto as_given = static_cast<std::int64_t>(given.partitions[i]);
      if (at != std::string::npos) {
        message.replace(at, engine_text.size(), "partition " + std::to_string(as_given) + " ");
      }
      throw_not_acquired_error(env, message, given.partitions[i], static_cast<double>(offset));
    }
    throw;
  }
}

Napi::Object share_partition_state_to_js(Napi::Env env, const Topic::SharePartitionState& state) {
  Napi::Object result = Napi::Object::New(env);
  const std::pair<const char*, std::int64_t> fields[] = {
      {"startOffset", state.start_offset},  {"endOffset", state.end_offset},
      {"available", state.available},       {"acquired", state.acquired},
      {"acknowledged", state.acknowledged}, {"archived", state.archived},
      {"deliveries", state.deliveries},     {"redeliveries", state.redeliveries},
  };
  for (const auto& [name, value] : fields) {
    result.Set(name, Napi::Number::New(env, static_cast<double>(value)));
  }
  return result;
}

}  // namespace kgroups::node
