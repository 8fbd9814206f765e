// SPDX-License-Identifier: Apache-2.0

#include "protocol/messages/join_group.h"

#include "protocol/messages/owned_fields.h"

namespace kgroups::protocol {

Result<JoinGroupRequest> JoinGroupRequest::decode(WireReader& reader, std::int16_t version) {
  if (version < kMinVersion || version > kMaxVersion) return ErrorCode::kUnsupportedVersion;
  JoinGroupRequest request;
  request.group_id = reader.read_string();
  request.session_timeout_ms = reader.read_int32();
  if (version >= 1) request.rebalance_timeout_ms = reader.read_int32();
  request.member_id = reader.read_string();
  if (version >= 5) request.group_instance_id = reader.read_nullable_string();
  request.protocol_type = reader.read_string();
  request.protocols = reader.read_array<Protocol>(
      [](WireReader& r) {
        Protocol protocol;
        protocol.name = r.read_string();
        protocol.metadata = r.read_bytes();
        return protocol;
      },
      6);
  if (!reader.ok()) return ErrorCode::kInvalidRequest;
  return request;
}

void JoinGroupRequest::encode(WireWriter& writer, std::int16_t version) const {
  writer.write_string(group_id);
  writer.write_int32(session_timeout_ms);
  if (version >= 1) writer.write_int32(rebalance_timeout_ms);
  writer.write_string(member_id);
  if (version >= 5) writer.write_nullable_string(group_instance_id);
  writer.write_string(protocol_type);
  writer.write_array(protocols, [](WireWriter& w, const Protocol& protocol) {
    w.write_string(protocol.name);
    w.write_bytes(protocol.metadata);
  });
}

Result<JoinGroupResponse> JoinGroupResponse::decode(WireReader& reader, std::int16_t version) {
  if (version < kMinVersion || version > kMaxVersion) return ErrorCode::kUnsupportedVersion;
  JoinGroupResponse response;
  if (version >= 2) response.throttle_time_ms = reader.read_int32();
  response.error_code = static_cast<ErrorCode>(reader.read_int16());
  response.generation_id = reader.read_int32();
  response.protocol_name = reader.read_string();
  response.leader = reader.read_string();
  response.member_id = reader.read_string();
  response.members = reader.read_array<Member>(
      [version](WireReader& r) {
        Member member;
        member.member_id = r.read_string();
        if (version >= 5) member.group_instance_id = to_owned(r.read_nullable_string());
        member.metadata = to_owned(r.read_bytes());
        return member;
      },
      6);
  if (!reader.ok()) return ErrorCode::kInvalidRequest;
  return response;
}

void JoinGroupResponse::encode(WireWriter& writer, std::int16_t version) const {
  if (version >= 2) writer.write_int32(throttle_time_ms);
  writer.write_int16(static_cast<std::int16_t>(error_code));
  writer.write_int32(generation_id);
  writer.write_string(protocol_name);
  writer.write_string(leader);
  writer.write_string(member_id);
  writer.write_array(members, [version](WireWriter& w, const Member& member) {
    w.write_string(member.member_id);
    if (version >= 5) w.write_nullable_string(to_view(member.group_instance_id));
    w.write_bytes(member.metadata);
  });
}

}  // namespace kgroups::protocol
