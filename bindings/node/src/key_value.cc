// SPDX-License-Identifier: Apache-2.0
//
// Keys and values between JS and the engine; see key_value.h.
#include "key_value.h"

#include <cstddef>
#include <cstdint>
#include <string>

#include "errors.h"

namespace kgroups::node {
CheckedKeyValue check_key_value(Napi::Value value, const char* what) {
  const napi_env env = value.Env();
  napi_valuetype type = napi_undefined;
  if (napi_typeof(env, value, &type) != napi_ok) throw Napi::Error::New(env);
  if (type == napi_string) return {Encoding::kText, {}};
  if (type == napi_object) {
    // napi_invalid_arg (and no exception) for an object that is no typed array.
    napi_typedarray_type array_type = napi_int8_array;
    std::size_t length = 0;
    void* data = nullptr;
    if (napi_get_typedarray_info(env, value, &array_type, &length, &data, nullptr, nullptr) ==
            napi_ok &&
        array_type == napi_uint8_array) {
      return {Encoding::kBytes, std::string_view(static_cast<const char*>(data), length)};
    }
  }
  throw_type_error(env, std::string(what) + " must be a string or a Uint8Array (a Buffer), got " +
                            describe_type(value) +
                            "; serialize other values first, e.g. with JSON.stringify");
}

KeyValueArg::KeyValueArg(Napi::Value value, const CheckedKeyValue& checked)
    : bytes_(checked.bytes), encoding_(checked.encoding) {
  if (encoding_ == Encoding::kText) {
    text_.emplace(value);
    bytes_ = text_->view();
  }
}

napi_value text_to_js(napi_env env, std::string_view utf8) {
  std::uint8_t high_bits = 0;
  for (const char byte : utf8) high_bits |= static_cast<std::uint8_t>(byte);
  napi_value result = nullptr;
  const napi_status status = high_bits < 0x80U
                                 ? napi_create_string_latin1(env, utf8.data(), utf8.size(), &result)
                                 : napi_create_string_utf8(env, utf8.data(), utf8.size(), &result);
  if (status != napi_ok) throw Napi::Error::New(env);
  return result;
}

}  // namespace kgroups::node
