// SPDX-License-Identifier: Apache-2.0

#include "protocol/messages/heartbeat.h"

namespace kgroups::protocol {

Result<HeartbeatRequest> HeartbeatRequest::decode(WireReader& reader, std::int16_t version) {
  if (version < kMinVersion || version > kMaxVersion) return ErrorCode::kUnsupportedVersion;
  HeartbeatRequest request;
  request.group_id = reader.read_string();
  request.generation_id = reader.read_int32();
  request.member_id = reader.read_string();
  if (version >= 3) request.group_instance_id = reader.read_nullable_string();
  if (!reader.ok()) return ErrorCode::kInvalidRequest;
  return request;
}

void HeartbeatRequest::encode(WireWriter& writer, std::int16_t version) const {
  writer.write_string(group_id);
  writer.write_int32(generation_id);
  writer.write_string(member_id);
  if (version >= 3) writer.write_nullable_string(group_instance_id);
}

Result<HeartbeatResponse> HeartbeatResponse::decode(WireReader& reader, std::int16_t version) {
  if (version < kMinVersion || version > kMaxVersion) return ErrorCode::kUnsupportedVersion;
  HeartbeatResponse response;
  if (version >= 1) response.throttle_time_ms = reader.read_int32();
  response.error_code = static_cast<ErrorCode>(reader.read_int16());
  if (!reader.ok()) return ErrorCode::kInvalidRequest;
  return response;
}

void HeartbeatResponse::encode(WireWriter& writer, std::int16_t version) const {
  if (version >= 1) writer.write_int32(throttle_time_ms);
  writer.write_int16(static_cast<std::int16_t>(error_code));
}

}  // namespace kgroups::protocol
