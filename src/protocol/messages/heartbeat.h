// SPDX-License-Identifier: Apache-2.0
//
// Heartbeat (key 12): v0-3.
// - v0: group_id, generation_id, member_id; response error_code.
// - v1: the response gains throttle_time_ms (first). v2: same layout. v3: group_instance_id.
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

struct HeartbeatRequest {
  static constexpr std::int16_t kMinVersion = 0;
  static constexpr std::int16_t kMaxVersion = 3;

  std::string_view group_id;
  std::int32_t generation_id = -1;
  std::string_view member_id;
  std::optional<std::string_view> group_instance_id;  // v3+

  static Result<HeartbeatRequest> decode(WireReader& reader, std::int16_t version);
  void encode(WireWriter& writer, std::int16_t version) const;
  bool operator==(const HeartbeatRequest&) const = default;
};

struct HeartbeatResponse {
  static constexpr std::int16_t kMinVersion = 0;
  static constexpr std::int16_t kMaxVersion = 3;

  std::int32_t throttle_time_ms = 0;  // v1+
  ErrorCode error_code = ErrorCode::kNone;

  static Result<HeartbeatResponse> decode(WireReader& reader, std::int16_t version);
  void encode(WireWriter& writer, std::int16_t version) const;
  bool operator==(const HeartbeatResponse&) const = default;
};

}  // namespace kgroups::protocol
