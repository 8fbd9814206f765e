// SPDX-License-Identifier: Apache-2.0
//
// SyncGroup (key 14): v0-3.
// - v0: group_id, generation_id, member_id, assignments[member_id, assignment] (only the
//   leader sends assignments); response error_code, assignment.
// - v1: the response gains throttle_time_ms. v2: same layout. v3: group_instance_id.
// The request views the frame (valid while it lives); the response owns its data.
// Thread-safe: plain values.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "protocol/byte_view.h"
#include "protocol/error_code.h"
#include "protocol/result.h"
#include "protocol/wire_reader.h"
#include "protocol/wire_writer.h"

namespace kgroups::protocol {

struct SyncGroupRequest {
  static constexpr std::int16_t kMinVersion = 0;
  static constexpr std::int16_t kMaxVersion = 3;

  struct Assignment {
    std::string_view member_id;
    ByteView assignment;  // opaque, relayed to that member
    bool operator==(const Assignment&) const = default;
  };

  std::string_view group_id;
  std::int32_t generation_id = -1;
  std::string_view member_id;
  std::optional<std::string_view> group_instance_id;  // v3+
  std::vector<Assignment> assignments;                // empty unless sent by the leader

  static Result<SyncGroupRequest> decode(WireReader& reader, std::int16_t version);
  void encode(WireWriter& writer, std::int16_t version) const;
  bool operator==(const SyncGroupRequest&) const = default;
};

struct SyncGroupResponse {
  static constexpr std::int16_t kMinVersion = 0;
  static constexpr std::int16_t kMaxVersion = 3;

  std::int32_t throttle_time_ms = 0;  // v1+
  ErrorCode error_code = ErrorCode::kNone;
  std::vector<std::uint8_t> assignment;  // the receiver's assignment from the leader

  static Result<SyncGroupResponse> decode(WireReader& reader, std::int16_t version);
  void encode(WireWriter& writer, std::int16_t version) const;
  bool operator==(const SyncGroupResponse&) const = default;
};

}  // namespace kgroups::protocol
