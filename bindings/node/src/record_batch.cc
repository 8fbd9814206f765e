// SPDX-License-Identifier: Apache-2.0
//
// Encodes poll's records for topic.js; see record_batch.h.
#include "record_batch.h"

#include <algorithm>
#include <cstdint>

#include "key_value.h"

namespace kgroups::node {

Napi::Array records_to_batch(Napi::Env env, const std::vector<Record>& records) {
  std::vector<double> runs;  // (partition, first offset, count) triples
  for (std::size_t i = 0; i < records.size(); ++i) {
    const Record& record = records[i];
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

  const std::size_t length = 2 * records.size() + 1;
  napi_value batch = nullptr;
  if (napi_create_array_with_length(env, length, &batch) != napi_ok) throw Napi::Error::New(env);
  std::uint32_t index = 0;
  for (const Record& record : records) {
    for (napi_value element : {key_value_to_js(env, record.key, record.key_encoding),
                               key_value_to_js(env, record.value, record.value_encoding)}) {
      if (napi_set_element(env, batch, index++, element) != napi_ok) {
        throw Napi::Error::New(env);
      }
    }
  }
  auto run_array = Napi::Float64Array::New(env, runs.size());
  std::copy(runs.begin(), runs.end(), run_array.Data());
  if (napi_set_element(env, batch, index, run_array) != napi_ok) throw Napi::Error::New(env);
  return Napi::Array(env, batch);
}

}  // namespace kgroups::node
