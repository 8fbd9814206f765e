// SPDX-License-Identifier: Apache-2.0
//
// Result<T>: a value or an ErrorCode, shaped like C++23's std::expected<T, ErrorCode>
// (has_value(), operator bool, operator*, operator->, value(), error()), so it can become
// `using Result = std::expected<T, ErrorCode>` later. Result<void> (alias Status) carries
// only the error. The codec reports malformed input with it and never throws.
// Not synchronized: a Result is a plain value.
#pragma once

#include <optional>
#include <type_traits>
#include <utility>

#include "protocol/error_code.h"

namespace kgroups::protocol {

template <class T>
class [[nodiscard]] Result {
 public:
  static_assert(!std::is_same_v<T, ErrorCode>, "Result<ErrorCode> would be ambiguous");

  // A success holding `value`. Both constructors are implicit so that a function returning
  // Result<T> can `return value;` or `return ErrorCode::kInvalidRequest;`.
  Result(T value) : value_(std::move(value)) {}
  // A failure holding `error`; `error` should not be ErrorCode::kNone.
  Result(ErrorCode error) : error_(error) {}

  [[nodiscard]] bool has_value() const { return value_.has_value(); }
  explicit operator bool() const { return has_value(); }

  // The held value; only valid when has_value().
  T& operator*() & { return *value_; }
  const T& operator*() const& { return *value_; }
  T&& operator*() && { return *std::move(value_); }
  T* operator->() { return &*value_; }
  const T* operator->() const { return &*value_; }
  T& value() & { return *value_; }
  [[nodiscard]] const T& value() const& { return *value_; }
  T&& value() && { return *std::move(value_); }

  // The failure; ErrorCode::kNone when has_value().
  [[nodiscard]] ErrorCode error() const { return error_; }

 private:
  std::optional<T> value_;
  ErrorCode error_ = ErrorCode::kNone;
};

template <>
class [[nodiscard]] Result<void> {
 public:
  // A success.
  Result() = default;
  // A failure holding `error`; ErrorCode::kNone makes a success.
  Result(ErrorCode error) : error_(error) {}

  [[nodiscard]] bool has_value() const { return error_ == ErrorCode::kNone; }
  explicit operator bool() const { return has_value(); }
  void value() const {}
  [[nodiscard]] ErrorCode error() const { return error_; }

 private:
  ErrorCode error_ = ErrorCode::kNone;
};

// Outcome of an operation that returns nothing.
using Status = Result<void>;

}  // namespace kgroups::protocol
