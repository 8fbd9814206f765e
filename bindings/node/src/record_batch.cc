// SPDX-License-Identifier: Apache-2.0
//
// Encodes poll's records for topic.js; see record_batch.h.
#include "record_batch.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <unordered_map>

#include "js_array.h"
#include "key_value.h"

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

}  // namespace

Napi::Array records_to_batch(Napi::Env env, const std::vector<Record>& records) {
  std::size_t byte_count = 0;
  bool any_bytes = false;
  for (const Record& record : records) {
    if (record.key_encoding == Encoding::kBytes) {
      byte_count += record.key.size();
      any_bytes = true;
    }
    if (record.value_encoding == Encoding::kBytes) {
      byte_count += record.value.size();
      any_bytes = true;
    }
  }

  napi_value undefined = nullptr;
  check(env, napi_get_undefined(env, &undefined));
  napi_value bytes = undefined;
  char* bytes_cursor = nullptr;
  if (any_bytes) {
    void* data = nullptr;
    check(env, napi_create_arraybuffer(env, byte_count, &data, &bytes));
    bytes_cursor = static_cast<char*>(data);
  }

  std::vector<double> byte_lengths;
  std::vector<napi_value> elements;
  elements.reserve(2 * records.size() + 3);
  // Keys repeat (one key's records share a partition), so each distinct text
  // key becomes one JS string per batch; values are mostly distinct.
  std::unordered_map<std::string_view, napi_value> text_keys;
  const auto add = [&](std::string_view content, Encoding encoding, bool is_key) {
    if (encoding == Encoding::kBytes) {
      if (!content.empty()) std::memcpy(bytes_cursor, content.data(), content.size());
      bytes_cursor += content.size();
      byte_lengths.push_back(static_cast<double>(content.size()));
      elements.push_back(undefined);
      return;
    }
    napi_value* cached = is_key ? &text_keys[content] : nullptr;
    if (cached != nullptr && *cached != nullptr) {
      elements.push_back(*cached);
      return;
    }
    napi_value text = text_to_js(env, content);
    if (cached != nullptr) *cached = text;
    elements.push_back(text);
  };
  for (const Record& record : records) {
    add(record.key, record.key_encoding, true);
    add(record.value, record.value_encoding, false);
  }

  const std::vector<double> runs = offset_runs(records);
  auto run_array = Napi::Float64Array::New(env, runs.size());
  std::copy(runs.begin(), runs.end(), run_array.Data());
  elements.push_back(run_array);
  elements.push_back(bytes);
  auto byte_length_array = Napi::Float64Array::New(env, byte_lengths.size());
  std::copy(byte_lengths.begin(), byte_lengths.end(), byte_length_array.Data());
  elements.push_back(byte_length_array);
  return new_js_array(env, elements);
}

}  // namespace kgroups::node
