// SPDX-License-Identifier: Apache-2.0
//
// Encodes poll's records for topic.js; see record_batch.h.
#include "record_batch.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "js_array.h"

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

  napi_value bytes = nullptr;
  char* bytes_cursor = nullptr;
  if (any_bytes) {
    void* data = nullptr;
    check(env, napi_create_arraybuffer(env, byte_count, &data, &bytes));
    bytes_cursor = static_cast<char*>(data);
  } else {
    check(env, napi_get_undefined(env, &bytes));
  }

  std::vector<napi_value> elements;
  elements.reserve(2 * records.size() + 2);
  const auto add = [&](std::string_view content, Encoding encoding) {
    napi_value element = nullptr;
    if (encoding == Encoding::kText) {
      check(env, napi_create_string_utf8(env, content.data(), content.size(), &element));
    } else {
      if (!content.empty()) std::memcpy(bytes_cursor, content.data(), content.size());
      bytes_cursor += content.size();
      check(env, napi_create_double(env, static_cast<double>(content.size()), &element));
    }
    elements.push_back(element);
  };
  for (const Record& record : records) {
    add(record.key, record.key_encoding);
    add(record.value, record.value_encoding);
  }

  const std::vector<double> runs = offset_runs(records);
  auto run_array = Napi::Float64Array::New(env, runs.size());
  std::copy(runs.begin(), runs.end(), run_array.Data());
  elements.push_back(run_array);
  elements.push_back(bytes);
  return new_js_array(env, elements);
}

}  // namespace kgroups::node
