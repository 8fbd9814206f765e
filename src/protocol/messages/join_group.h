// SPDX-License-Identifier: Apache-2.0
//
// JoinGroup (key 11): v0-5.
// - v0: group_id, session_timeout_ms, member_id, protocol_type, protocols[name, metadata].
// - v1: rebalance_timeout_ms (v0 uses the session timeout for both).
// - v2: the response gains throttle_time_ms. v3: same layout.
// - v4: same layout; brokers answer a new member with MEMBER_ID_REQUIRED (79) and an id.
// - v5: group_instance_id (static membership) in the request and in each response member.
// Only the leader's response lists members (with their subscription metadata).
// The request views the frame (valid while it lives); the response owns its data.
// Thread-safe: plain values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/byte_view.h"
#include "protocol/error_code.h"
#include "protocol/result.h"
#include "protocol/wire_reader.h"
#include "protocol/wire_writer.h"

namespace kgroups::protocol {

struct JoinGroupRequest {
  static constexpr std::int16_t kMinVersion = 0;
  static constexpr std::int16_t kMaxVersion = 5;

  struct Protocol {
    std::string_view name;  // assignor name, e.g. "range"
    ByteView metadata;      // opaque subscription, relayed to the leader
    bool operator==(const Protocol&) const = default;
  };

  std::string_view group_id;
  std::int32_t session_timeout_ms = 0;
  std::int32_t rebalance_timeout_ms = -1;             // v1+; -1 in v0 (use session_timeout_ms)
  std::string_view member_id;                         // "" for a new member
  std::optional<std::string_view> group_instance_id;  // v5+
  std::string_view protocol_type;                     // "consumer" for consumers
  std::vector<Protocol> protocols;                    // in the member's preference order

  static Result<JoinGroupRequest> decode(WireReader& reader, std::int16_t version);
  void encode(WireWriter& writer, std::int16_t version) const;
  bool operator==(const JoinGroupRequest&) const = default;
};

struct JoinGroupResponse {
  static constexpr std::int16_t kMinVersion = 0;
  static constexpr std::int16_t kMaxVersion = 5;

  struct Member {
    std::string member_id;
    std::optional<std::string> group_instance_id;  // v5+
    std::vector<std::uint8_t> metadata;            // the member's metadata for protocol_name
    bool operator==(const Member&) const = default;
  };

  std::int32_t throttle_time_ms = 0;  // v2+
  ErrorCode error_code = ErrorCode::kNone;
  std::int32_t generation_id = -1;
  std::string protocol_name;    // the assignor chosen for this generation
  std::string leader;           // the leader's member id
  std::string member_id;        // the receiver's member id
  std::vector<Member> members;  // non-empty only in the leader's response

  static Result<JoinGroupResponse> decode(WireReader& reader, std::int16_t version);
  void encode(WireWriter& writer, std::int16_t version) const;
  bool operator==(const JoinGroupResponse&) const = default;
};

}  // namespace kgroups::protocol
