// SPDX-License-Identifier: Apache-2.0
//
// LeaveGroup (key 13): v0-2.
// - v0: group_id, member_id; response error_code.
// - v1: the response gains throttle_time_ms (first). v2: same layout.
// - v3+ (a list of members, static membership): not implemented.
// The request views the frame (valid while it lives). Thread-safe: plain values.
#pragma once

#include <cstdint>
#include <string_view>

#include "protocol/error_code.h"
#include "protocol/result.h"
#include "protocol/wire_reader.h"
#include "protocol/wire_writer.h"

namespace kgroups::protocol {

struct LeaveGroupRequest {
  static constexpr std::int16_t kMinVersion = 0;
  static constexpr std::int16_t kMaxVersion = 2;

  std::string_view group_id;
  std::string_view member_id;

  static Result<LeaveGroupRequest> decode(WireReader& reader, std::int16_t version);
  void encode(WireWriter& writer, std::int16_t version) const;
  bool operator==(const LeaveGroupRequest&) const = default;
};

struct LeaveGroupResponse {
  static constexpr std::int16_t kMinVersion = 0;
  static constexpr std::int16_t kMaxVersion = 2;

  std::int32_t throttle_time_ms = 0;  // v1+
  ErrorCode error_code = ErrorCode::kNone;

  static Result<LeaveGroupResponse> decode(WireReader& reader, std::int16_t version);
  void encode(WireWriter& writer, std::int16_t version) const;
  bool operator==(const LeaveGroupResponse&) const = default;
};

}  // namespace kgroups::protocol
