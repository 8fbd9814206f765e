// SPDX-License-Identifier: Apache-2.0
//
// Record keys and values between JS and the engine (SPEC.md, "Bindings"): a JS
// string is UTF-8 text (Encoding::kText), a Uint8Array (a Buffer is one) is
// bytes (Encoding::kBytes), and each comes back as the kind it went in as (text
// here, bytes in record_batch.h). Used on the JS thread only.
#pragma once

#include <napi.h>

#include <optional>
#include <string_view>

#include "convert.h"
#include "kgroups/record.h"

namespace kgroups::node {

// A checked key or value: kText for a string, kBytes for a Uint8Array with a
// view of its bytes (do not run JS code while it is in use).
struct CheckedKeyValue {
  Encoding encoding = Encoding::kBytes;
  std::string_view bytes;  // a Uint8Array's; empty for text
};

// A string or a Uint8Array (two Node-API calls for either); throws a
// TypeError, telling the user to serialize first, for anything else. `what`
// names the argument, e.g. "append: key".
[[nodiscard]] CheckedKeyValue check_key_value(Napi::Value value, const char* what);

// The bytes of a key or value that check_key_value checked: a string's UTF-8
// copy, or a Uint8Array's view (not copied: do not run JS code while this
// lives).
class KeyValueArg {
 public:
  KeyValueArg(Napi::Value value, const CheckedKeyValue& checked);

  [[nodiscard]] std::string_view bytes() const noexcept { return bytes_; }
  [[nodiscard]] Encoding encoding() const noexcept { return encoding_; }

 private:
  std::optional<Utf8> text_;  // holds the UTF-8 copy of a string
  std::string_view bytes_;    // in text_ or in the Uint8Array's memory
  Encoding encoding_ = Encoding::kBytes;
};

// A new JS string holding UTF-8 text from the engine. ASCII text takes V8's
// one-byte path (no UTF-8 decoding), which is about twice as fast.
[[nodiscard]] napi_value text_to_js(napi_env env, std::string_view utf8);

}  // namespace kgroups::node
