// SPDX-License-Identifier: Apache-2.0
//
// Encodes poll's records for topic.js; see record_batch.h.
#include "record_batch.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "js_array.h"
#include "poll_strings.h"

namespace kgroups::node {
namespace {

// (partition, first offset, count) triples describing the records in order.
std::vector<double> offset_runs(const std::vector<Record>& records) {
  std::vector<double> runs;
  for (const Record& record : records) {
    const bool continues_run =
        !runs.empty() && runs[runs.size() - 3] == record.partition &&
        runs[runs.size() - 2] + runs.back() == static_cast<double>(record.offset);
    if (continues_run) {
      runs.back() += 1;
    } else {
      runs.insert(runs.end(),
                  {static_cast<double>(record.partition), static_cast<double>(record.offset), 1});
    }
  }
  return runs;
}

void check(napi_env env, napi_status status) {
  if (status != napi_ok) throw Napi::Error::New(env);
}

// The ArrayBuffer holding the bytes of every byte key and value of `records`
// in order, and their sizes; undefined and an empty array if there are none.
std::pair<napi_value, Napi::Float64Array> byte_contents(Napi::Env env,
                                                        const std::vector<Record>& records) {
  std::size_t byte_count = 0;
  std::size_t byte_entries = 0;
  for (const Record& record : records) {
    if (record.key_encoding == Encoding::kBytes) {
      byte_count += record.key.size();
      ++byte_entries;
    }
    if (record.value_encoding == Encoding::kBytes) {
      byte_count += record.value.size();
      ++byte_entries;
    }
  }
  auto sizes = Napi::Float64Array::New(env, byte_entries);
  if (byte_entries == 0) return {env.Undefined(), sizes};
  napi_value bytes = nullptr;
  void* data = nullptr;
  check(env, napi_create_arraybuffer(env, byte_count, &data, &bytes));
  char* cursor = static_cast<char*>(data);
  double* size = sizes.Data();
  const auto copy = [&](std::string_view content) {
    if (!content.empty()) std::memcpy(cursor, content.data(), content.size());
    cursor += content.size();
    *size++ = static_cast<double>(content.size());
  };
  for (const Record& record : records) {
    if (record.key_encoding == Encoding::kBytes) copy(record.key);
    if (record.value_encoding == Encoding::kBytes) copy(record.value);
  }
  return {bytes, sizes};
}

}  // namespace

Napi::Array records_to_batch(Napi::Env env, const std::vector<Record>& records,
                             PollStrings& key_strings, PollStrings& value_strings) {
  key_strings.begin_batch();
  value_strings.begin_batch();
  try {
    BatchRefs batch;
    auto refs = Napi::Int32Array::New(env, 2 * records.size());
    std::int32_t* ref = refs.Data();
    const auto refer = [&](std::string_view content, Encoding encoding, PollStrings& strings) {
      *ref++ = encoding == Encoding::kBytes ? -1 : strings.ref_of(env, content, batch);
    };
    for (const Record& record : records) {
      refer(record.key, record.key_encoding, key_strings);
      refer(record.value, record.value_encoding, value_strings);
    }
    auto placements = Napi::Int32Array::New(env, batch.placements.size());
    std::copy(batch.placements.begin(), batch.placements.end(), placements.Data());

    const std::vector<double> runs = offset_runs(records);
    auto run_array = Napi::Float64Array::New(env, runs.size());
    std::copy(runs.begin(), runs.end(), run_array.Data());
    const auto [bytes, byte_lengths] = byte_contents(env, records);
    std::vector<napi_value>& elements = batch.new_strings;
    elements.insert(elements.end(), {refs, placements, run_array, bytes, byte_lengths});
    return new_js_array(env, elements);
  } catch (...) {
    // topic.js never sees this batch's placements.
    key_strings.forget();
    value_strings.forget();
    throw;
  }
}

}  // namespace kgroups::node
