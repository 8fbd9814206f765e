// SPDX-License-Identifier: Apache-2.0
//
// Encodes poll's records for topic.js; see record_batch.h.
#include "record_batch.h"

#include <algorithm>
#include <cstring>
#include <string_view>

#include "js_array.h"

namespace kgroups::node {
namespace {

void check(napi_env env, napi_status status) {
  if (status != napi_ok) throw Napi::Error::New(env);
}

}  // namespace

void PollBatch::reserve(Napi::Env env, std::size_t words) {
  // Grows by doubling; gives a large scratch back once a batch needs less than
  // a quarter of it, so that it holds at most about 4 times the last batch.
  const bool shrink = capacity_ > 8 * kInitialWords && 4 * words < capacity_;
  if (words <= capacity_ && !shrink) return;
  const std::size_t capacity = std::max({words, kInitialWords, shrink ? words : 2 * capacity_});
  napi_value buffer = nullptr;
  void* data = nullptr;
  check(env, napi_create_arraybuffer(env, capacity * sizeof(std::int32_t), &data, &buffer));
  scratch_ = Napi::Persistent(Napi::ArrayBuffer(env, buffer));
  words_ = static_cast<std::int32_t*>(data);
  capacity_ = capacity;
  scratch_unseen_ = true;
}

Napi::Value PollBatch::encode(Napi::Env env, const std::vector<Record>& records,
                              PollStrings& key_strings, PollStrings& value_strings) {
  const std::size_t count = records.size();
  reserve(env, 4 + 16 * count);
  key_strings.begin_batch();
  value_strings.begin_batch();
  refs_.new_strings.assign(2, nullptr);
  refs_.placements.clear();
  try {
    std::int32_t* ref = words_ + 4 + 10 * count;
    auto* floats = reinterpret_cast<double*>(words_);
    double* run = floats + 2;
    double* byte_size = floats + 2 + 3 * count;
    std::size_t byte_count = 0;
    double* last_run = nullptr;
    // A key's or value's ref; a byte one's size goes to the byte sizes.
    const auto refer = [&](std::string_view content, Encoding encoding, PollStrings& strings) {
      if (encoding == Encoding::kText) {
        *ref++ = strings.ref_of(env, content, refs_);
        return;
      }
      *ref++ = -1;
      *byte_size++ = static_cast<double>(content.size());
      byte_count += content.size();
    };
    for (const Record& record : records) {
      const auto offset = static_cast<double>(record.offset);
      if (last_run != nullptr && last_run[0] == record.partition &&
          last_run[1] + last_run[2] == offset) {
        last_run[2] += 1;
      } else {
        last_run = run;
        run[0] = record.partition;
        run[1] = offset;
        run[2] = 1;
        run += 3;
      }
      refer(record.key, record.key_encoding, key_strings);
      refer(record.value, record.value_encoding, value_strings);
    }
    const std::size_t byte_entries = byte_size - (floats + 2 + 3 * count);
    std::copy(refs_.placements.begin(), refs_.placements.end(), ref);
    words_[0] = static_cast<std::int32_t>(count);
    words_[1] = static_cast<std::int32_t>((run - (floats + 2)) / 3);
    words_[2] = static_cast<std::int32_t>(refs_.placements.size() / 2);
    words_[3] = static_cast<std::int32_t>(byte_entries);

    napi_value bytes = env.Undefined();
    if (byte_entries > 0) {
      void* data = nullptr;
      check(env, napi_create_arraybuffer(env, byte_count, &data, &bytes));
      char* cursor = static_cast<char*>(data);
      const auto copy = [&](std::string_view content) {
        if (!content.empty()) std::memcpy(cursor, content.data(), content.size());
        cursor += content.size();
      };
      for (const Record& record : records) {
        if (record.key_encoding == Encoding::kBytes) copy(record.key);
        if (record.value_encoding == Encoding::kBytes) copy(record.value);
      }
    }
    if (!scratch_unseen_ && byte_entries == 0 && refs_.new_strings.size() == 2) {
      return env.Undefined();
    }
    refs_.new_strings[0] = scratch_unseen_ ? scratch_.Value() : env.Undefined();
    refs_.new_strings[1] = bytes;
    const Napi::Array extras = new_js_array(env, refs_.new_strings);
    scratch_unseen_ = false;
    return extras;
  } catch (...) {
    // topic.js never sees this batch's placements.
    key_strings.forget();
    value_strings.forget();
    throw;
  }
}

void PollBatch::release() {
  scratch_.Reset();
  words_ = nullptr;
  capacity_ = 0;
  scratch_unseen_ = false;
  refs_.new_strings = {};
  refs_.placements = {};
}

}  // namespace kgroups::node
