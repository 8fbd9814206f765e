// SPDX-License-Identifier: Apache-2.0

#include "protocol/messages/find_coordinator.h"

#include "protocol/messages/owned_fields.h"

namespace kgroups::protocol {

Result<FindCoordinatorRequest> FindCoordinatorRequest::decode(WireReader& reader,
                                                              std::int16_t version) {
  if (version < kMinVersion || version > kMaxVersion) return ErrorCode::kUnsupportedVersion;
  FindCoordinatorRequest request;
  request.key = reader.read_string();
  if (version >= 1) request.key_type = reader.read_int8();
  if (!reader.ok()) return ErrorCode::kInvalidRequest;
  return request;
}

void FindCoordinatorRequest::encode(WireWriter& writer, std::int16_t version) const {
  writer.write_string(key);
  if (version >= 1) writer.write_int8(key_type);
}

Result<FindCoordinatorResponse> FindCoordinatorResponse::decode(WireReader& reader,
                                                                std::int16_t version) {
  if (version < kMinVersion || version > kMaxVersion) return ErrorCode::kUnsupportedVersion;
  FindCoordinatorResponse response;
  if (version >= 1) response.throttle_time_ms = reader.read_int32();
  response.error_code = static_cast<ErrorCode>(reader.read_int16());
  if (version >= 1) response.error_message = to_owned(reader.read_nullable_string());
  response.node_id = reader.read_int32();
  response.host = reader.read_string();
  response.port = reader.read_int32();
  if (!reader.ok()) return ErrorCode::kInvalidRequest;
  return response;
}

void FindCoordinatorResponse::encode(WireWriter& writer, std::int16_t version) const {
  if (version >= 1) writer.write_int32(throttle_time_ms);
  writer.write_int16(static_cast<std::int16_t>(error_code));
  if (version >= 1) writer.write_nullable_string(to_view(error_message));
  writer.write_int32(node_id);
  writer.write_string(host);
  writer.write_int32(port);
}

}  // namespace kgroups::protocol
