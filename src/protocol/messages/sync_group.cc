// SPDX-License-Identifier: Apache-2.0

#include "protocol/messages/sync_group.h"

#include "protocol/messages/owned_fields.h"

namespace kgroups::protocol {

Result<SyncGroupRequest> SyncGroupRequest::decode(WireReader& reader, std::int16_t version) {
  if (version < kMinVersion || version > kMaxVersion) return ErrorCode::kUnsupportedVersion;
  SyncGroupRequest request;
  request.group_id = reader.read_string();
  request.generation_id = reader.read_int32();
  request.member_id = reader.read_string();
  if (version >= 3) request.group_instance_id = reader.read_nullable_string();
  request.assignments = reader.read_array<Assignment>(
      [](WireReader& r) {
        Assignment assignment;
        assignment.member_id = r.read_string();
        assignment.assignment = r.read_bytes();
        return assignment;
      },
      6);
  if (!reader.ok()) return ErrorCode::kInvalidRequest;
  return request;
}

void SyncGroupRequest::encode(WireWriter& writer, std::int16_t version) const {
  writer.write_string(group_id);
  writer.write_int32(generation_id);
  writer.write_string(member_id);
  if (version >= 3) writer.write_nullable_string(group_instance_id);
  writer.write_array(assignments, [](WireWriter& w, const Assignment& assignment) {
    w.write_string(assignment.member_id);
    w.write_bytes(assignment.assignment);
  });
}

Result<SyncGroupResponse> SyncGroupResponse::decode(WireReader& reader, std::int16_t version) {
  if (version < kMinVersion || version > kMaxVersion) return ErrorCode::kUnsupportedVersion;
  SyncGroupResponse response;
  if (version >= 1) response.throttle_time_ms = reader.read_int32();
  response.error_code = static_cast<ErrorCode>(reader.read_int16());
  response.assignment = to_owned(reader.read_bytes());
  if (!reader.ok()) return ErrorCode::kInvalidRequest;
  return response;
}

void SyncGroupResponse::encode(WireWriter& writer, std::int16_t version) const {
  if (version >= 1) writer.write_int32(throttle_time_ms);
  writer.write_int16(static_cast<std::int16_t>(error_code));
  writer.write_bytes(assignment);
}

}  // namespace kgroups::protocol
