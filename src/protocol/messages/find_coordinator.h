// SPDX-License-Identifier: Apache-2.0
//
// FindCoordinator (key 10, also called GroupCoordinator): v0-2.
// - v0: key (the group id); response error_code, node_id, host, port.
// - v1: key_type (0 group, 1 transaction); the response gains throttle_time_ms (first) and
//   error_message. v2: same layout as v1.
// The request views the frame (valid while it lives); the response owns its data.
// Thread-safe: plain values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "protocol/error_code.h"
#include "protocol/result.h"
#include "protocol/wire_reader.h"
#include "protocol/wire_writer.h"

namespace kgroups::protocol {

struct FindCoordinatorRequest {
  static constexpr std::int16_t kMinVersion = 0;
  static constexpr std::int16_t kMaxVersion = 2;

  std::string_view key;      // the group id (or transactional id when key_type is 1)
  std::int8_t key_type = 0;  // v1+; 0 group, 1 transaction

  static Result<FindCoordinatorRequest> decode(WireReader& reader, std::int16_t version);
  void encode(WireWriter& writer, std::int16_t version) const;
  bool operator==(const FindCoordinatorRequest&) const = default;
};

struct FindCoordinatorResponse {
  static constexpr std::int16_t kMinVersion = 0;
  static constexpr std::int16_t kMaxVersion = 2;

  std::int32_t throttle_time_ms = 0;  // v1+
  ErrorCode error_code = ErrorCode::kNone;
  std::optional<std::string> error_message;  // v1+
  std::int32_t node_id = -1;
  std::string host;
  std::int32_t port = -1;

  static Result<FindCoordinatorResponse> decode(WireReader& reader, std::int16_t version);
  void encode(WireWriter& writer, std::int16_t version) const;
  bool operator==(const FindCoordinatorResponse&) const = default;
};

}  // namespace kgroups::protocol
