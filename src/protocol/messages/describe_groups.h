// SPDX-License-Identifier: Apache-2.0
//
// DescribeGroups (key 15): v0-4.
// - v0: groups[]; response groups[error_code, group_id, group_state, protocol_type,
//   protocol_data, members[member_id, client_id, client_host, member_metadata,
//   member_assignment]].
// - v1: the response gains throttle_time_ms. v2: same layout.
// - v3: include_authorized_operations; groups gain authorized_operations.
// - v4: members gain group_instance_id.
// group_state is Kafka's state name ("Stable", "PreparingRebalance", "CompletingRebalance",
// "Empty", "Dead"). The request views the frame (valid while it lives); the response owns its
// data. Thread-safe: plain values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/error_code.h"
#include "protocol/result.h"
#include "protocol/wire_reader.h"
#include "protocol/wire_writer.h"

namespace kgroups::protocol {

struct DescribeGroupsRequest {
  static constexpr std::int16_t kMinVersion = 0;
  static constexpr std::int16_t kMaxVersion = 4;

  std::vector<std::string_view> groups;
  bool include_authorized_operations = false;  // v3+

  static Result<DescribeGroupsRequest> decode(WireReader& reader, std::int16_t version);
  void encode(WireWriter& writer, std::int16_t version) const;
  bool operator==(const DescribeGroupsRequest&) const = default;
};

struct DescribeGroupsResponse {
  static constexpr std::int16_t kMinVersion = 0;
  static constexpr std::int16_t kMaxVersion = 4;

  struct Member {
    std::string member_id;
    std::optional<std::string> group_instance_id;  // v4+
    std::string client_id;
    std::string client_host;
    std::vector<std::uint8_t> member_metadata;    // the member's subscription
    std::vector<std::uint8_t> member_assignment;  // the member's current assignment
    bool operator==(const Member&) const = default;
  };
  struct Group {
    ErrorCode error_code = ErrorCode::kNone;
    std::string group_id;
    std::string group_state;
    std::string protocol_type;
    std::string protocol_data;  // the chosen assignor's name
    std::vector<Member> members;
    std::int32_t authorized_operations = -2147483648;  // v3+; INT32_MIN: not requested
    bool operator==(const Group&) const = default;
  };

  std::int32_t throttle_time_ms = 0;  // v1+
  std::vector<Group> groups;

  static Result<DescribeGroupsResponse> decode(WireReader& reader, std::int16_t version);
  void encode(WireWriter& writer, std::int16_t version) const;
  bool operator==(const DescribeGroupsResponse&) const = default;
};

}  // namespace kgroups::protocol
