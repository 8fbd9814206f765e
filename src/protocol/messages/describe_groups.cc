// SPDX-License-Identifier: Apache-2.0

#include "protocol/messages/describe_groups.h"

#include "protocol/messages/owned_fields.h"

namespace kgroups::protocol {

Result<DescribeGroupsRequest> DescribeGroupsRequest::decode(WireReader& reader,
                                                            std::int16_t version) {
  if (version < kMinVersion || version > kMaxVersion) return ErrorCode::kUnsupportedVersion;
  DescribeGroupsRequest request;
  request.groups =
      reader.read_array<std::string_view>([](WireReader& r) { return r.read_string(); }, 2);
  if (version >= 3) request.include_authorized_operations = reader.read_bool();
  if (!reader.ok()) return ErrorCode::kInvalidRequest;
  return request;
}

void DescribeGroupsRequest::encode(WireWriter& writer, std::int16_t version) const {
  writer.write_array(groups, [](WireWriter& w, std::string_view group) { w.write_string(group); });
  if (version >= 3) writer.write_bool(include_authorized_operations);
}

Result<DescribeGroupsResponse> DescribeGroupsResponse::decode(WireReader& reader,
                                                              std::int16_t version) {
  if (version < kMinVersion || version > kMaxVersion) return ErrorCode::kUnsupportedVersion;
  DescribeGroupsResponse response;
  if (version >= 1) response.throttle_time_ms = reader.read_int32();
  response.groups = reader.read_array<Group>(
      [version](WireReader& r) {
        Group group;
        group.error_code = static_cast<ErrorCode>(r.read_int16());
        group.group_id = r.read_string();
        group.group_state = r.read_string();
        group.protocol_type = r.read_string();
        group.protocol_data = r.read_string();
        group.members = r.read_array<Member>(
            [version](WireReader& m) {
              Member member;
              member.member_id = m.read_string();
              if (version >= 4) member.group_instance_id = to_owned(m.read_nullable_string());
              member.client_id = m.read_string();
              member.client_host = m.read_string();
              member.member_metadata = to_owned(m.read_bytes());
              member.member_assignment = to_owned(m.read_bytes());
              return member;
            },
            14);
        if (version >= 3) group.authorized_operations = r.read_int32();
        return group;
      },
      14);
  if (!reader.ok()) return ErrorCode::kInvalidRequest;
  return response;
}

void DescribeGroupsResponse::encode(WireWriter& writer, std::int16_t version) const {
  if (version >= 1) writer.write_int32(throttle_time_ms);
  writer.write_array(groups, [version](WireWriter& w, const Group& group) {
    w.write_int16(static_cast<std::int16_t>(group.error_code));
    w.write_string(group.group_id);
    w.write_string(group.group_state);
    w.write_string(group.protocol_type);
    w.write_string(group.protocol_data);
    w.write_array(group.members, [version](WireWriter& m, const Member& member) {
      m.write_string(member.member_id);
      if (version >= 4) m.write_nullable_string(to_view(member.group_instance_id));
      m.write_string(member.client_id);
      m.write_string(member.client_host);
      m.write_bytes(member.member_metadata);
      m.write_bytes(member.member_assignment);
    });
    if (version >= 3) w.write_int32(group.authorized_operations);
  });
}

}  // namespace kgroups::protocol
