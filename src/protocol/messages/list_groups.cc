// SPDX-License-Identifier: Apache-2.0

#include "protocol/messages/list_groups.h"

namespace kgroups::protocol {

Result<ListGroupsRequest> ListGroupsRequest::decode(WireReader& reader, std::int16_t version) {
  if (version < kMinVersion || version > kMaxVersion) return ErrorCode::kUnsupportedVersion;
  if (!reader.ok()) return ErrorCode::kInvalidRequest;
  return ListGroupsRequest{};
}

void ListGroupsRequest::encode([[maybe_unused]] WireWriter& writer,
                               [[maybe_unused]] std::int16_t version) const {}

Result<ListGroupsResponse> ListGroupsResponse::decode(WireReader& reader, std::int16_t version) {
  if (version < kMinVersion || version > kMaxVersion) return ErrorCode::kUnsupportedVersion;
  ListGroupsResponse response;
  if (version >= 1) response.throttle_time_ms = reader.read_int32();
  response.error_code = static_cast<ErrorCode>(reader.read_int16());
  response.groups = reader.read_array<Group>(
      [](WireReader& r) {
        Group group;
        group.group_id = r.read_string();
        group.protocol_type = r.read_string();
        return group;
      },
      4);
  if (!reader.ok()) return ErrorCode::kInvalidRequest;
  return response;
}

void ListGroupsResponse::encode(WireWriter& writer, std::int16_t version) const {
  if (version >= 1) writer.write_int32(throttle_time_ms);
  writer.write_int16(static_cast<std::int16_t>(error_code));
  writer.write_array(groups, [](WireWriter& w, const Group& group) {
    w.write_string(group.group_id);
    w.write_string(group.protocol_type);
  });
}

}  // namespace kgroups::protocol
