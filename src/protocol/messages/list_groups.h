// SPDX-License-Identifier: Apache-2.0
//
// ListGroups (key 16): v0-2.
// - v0: empty request; response error_code, groups[group_id, protocol_type].
// - v1: the response gains throttle_time_ms (first). v2: same layout.
// The response owns its data. Thread-safe: plain values.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "protocol/error_code.h"
#include "protocol/result.h"
#include "protocol/wire_reader.h"
#include "protocol/wire_writer.h"

namespace kgroups::protocol {

struct ListGroupsRequest {
  static constexpr std::int16_t kMinVersion = 0;
  static constexpr std::int16_t kMaxVersion = 2;

  static Result<ListGroupsRequest> decode(WireReader& reader, std::int16_t version);
  void encode(WireWriter& writer, std::int16_t version) const;
  bool operator==(const ListGroupsRequest&) const = default;
};

struct ListGroupsResponse {
  static constexpr std::int16_t kMinVersion = 0;
  static constexpr std::int16_t kMaxVersion = 2;

  struct Group {
    std::string group_id;
    std::string protocol_type;  // "consumer" for consumer groups
    bool operator==(const Group&) const = default;
  };

  std::int32_t throttle_time_ms = 0;  // v1+
  ErrorCode error_code = ErrorCode::kNone;
  std::vector<Group> groups;

  static Result<ListGroupsResponse> decode(WireReader& reader, std::int16_t version);
  void encode(WireWriter& writer, std::int16_t version) const;
  bool operator==(const ListGroupsResponse&) const = default;
};

}  // namespace kgroups::protocol
