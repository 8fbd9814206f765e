// SPDX-License-Identifier: Apache-2.0
//
// Keys and values between JS and the engine; see key_value.h.
#include "key_value.h"

#include <cstdint>
#include <string>

#include "errors.h"

namespace kgroups::node {
namespace {

bool is_uint8_array(Napi::Value value) {
  return value.IsTypedArray() && value.As<Napi::TypedArray>().TypedArrayType() == napi_uint8_array;
}

}  // namespace

Encoding check_key_value(Napi::Value value, const char* what) {
  if (value.IsString()) return Encoding::kText;
  if (!is_uint8_array(value)) {
    throw_type_error(value.Env(), std::string(what) +
                                      " must be a string or a Uint8Array (a Buffer), got " +
                                      describe_type(value) +
                                      "; serialize other values first, e.g. with JSON.stringify");
  }
  return Encoding::kBytes;
}

KeyValueArg::KeyValueArg(Napi::Value value, Encoding encoding) : encoding_(encoding) {
  if (encoding == Encoding::kText) {
    text_.emplace(value);
    bytes_ = text_->view();
    return;
  }
  const auto array = value.As<Napi::Uint8Array>();
  bytes_ = std::string_view(reinterpret_cast<const char*>(array.Data()), array.ElementLength());
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
