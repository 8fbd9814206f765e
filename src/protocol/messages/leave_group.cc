// SPDX-License-Identifier: Apache-2.0

#include "protocol/messages/leave_group.h"

namespace kgroups::protocol {

Result<LeaveGroupRequest> LeaveGroupRequest::decode(WireReader& reader, std::int16_t version) {
  if (version < kMinVersion || version > kMaxVersion) return ErrorCode::kUnsupportedVersion;
  LeaveGroupRequest request;
  request.group_id = reader.read_string();
  request.member_id = reader.read_string();
  if (!reader.ok()) return ErrorCode::kInvalidRequest;
  return request;
}

void LeaveGroupRequest::encode(WireWriter& writer, [[maybe_unused]] std::int16_t version) const {
  writer.write_string(group_id);
  writer.write_string(member_id);
}

Result<LeaveGroupResponse> LeaveGroupResponse::decode(WireReader& reader, std::int16_t version) {
  if (version < kMinVersion || version > kMaxVersion) return ErrorCode::kUnsupportedVersion;
  LeaveGroupResponse response;
  if (version >= 1) response.throttle_time_ms = reader.read_int32();
  response.error_code = static_cast<ErrorCode>(reader.read_int16());
  if (!reader.ok()) return ErrorCode::kInvalidRequest;
  return response;
}

void LeaveGroupResponse::encode(WireWriter& writer, std::int16_t version) const {
  if (version >= 1) writer.write_int32(throttle_time_ms);
  writer.write_int16(static_cast<std::int16_t>(error_code));
}

}  // namespace kgroups::protocol
