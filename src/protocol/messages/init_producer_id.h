// SPDX-License-Identifier: Apache-2.0
//
// InitProducerId (key 22): v0-1 (same layout; v2+ are flexible and not implemented).
// - Request: transactional_id (null for an idempotent, non-transactional producer),
//   transaction_timeout_ms.
// - Response: throttle_time_ms, error_code, producer_id, producer_epoch.
// The request views the frame (valid while it lives). Thread-safe: plain values.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "protocol/error_code.h"
#include "protocol/result.h"
#include "protocol/wire_reader.h"
#include "protocol/wire_writer.h"

namespace kgroups::protocol {

struct InitProducerIdRequest {
  static constexpr std::int16_t kMinVersion = 0;
  static constexpr std::int16_t kMaxVersion = 1;

  std::optional<std::string_view> transactional_id;
  std::int32_t transaction_timeout_ms = 0;

  static Result<InitProducerIdRequest> decode(WireReader& reader, std::int16_t version);
  void encode(WireWriter& writer, std::int16_t version) const;
  bool operator==(const InitProducerIdRequest&) const = default;
};

struct InitProducerIdResponse {
  static constexpr std::int16_t kMinVersion = 0;
  static constexpr std::int16_t kMaxVersion = 1;

  std::int32_t throttle_time_ms = 0;
  ErrorCode error_code = ErrorCode::kNone;
  std::int64_t producer_id = -1;
  std::int16_t producer_epoch = -1;

  static Result<InitProducerIdResponse> decode(WireReader& reader, std::int16_t version);
  void encode(WireWriter& writer, std::int16_t version) const;
  bool operator==(const InitProducerIdResponse&) const = default;
};

}  // namespace kgroups::protocol
