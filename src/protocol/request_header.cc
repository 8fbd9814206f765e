// SPDX-License-Identifier: Apache-2.0

#include "protocol/request_header.h"

namespace kgroups::protocol {

bool is_flexible_request(ApiKey key, std::int16_t version) {
  std::int16_t first_flexible = 0;
  switch (key) {
    case ApiKey::kProduce:
      first_flexible = 9;
      break;
    case ApiKey::kFetch:
      first_flexible = 12;
      break;
    case ApiKey::kListOffsets:
      first_flexible = 6;
      break;
    case ApiKey::kMetadata:
      first_flexible = 9;
      break;
    case ApiKey::kOffsetCommit:
      first_flexible = 8;
      break;
    case ApiKey::kOffsetFetch:
      first_flexible = 6;
      break;
    case ApiKey::kFindCoordinator:
      first_flexible = 3;
      break;
    case ApiKey::kJoinGroup:
      first_flexible = 6;
      break;
    case ApiKey::kHeartbeat:
    case ApiKey::kLeaveGroup:
    case ApiKey::kSyncGroup:
      first_flexible = 4;
      break;
    case ApiKey::kDescribeGroups:
      first_flexible = 5;
      break;
    case ApiKey::kListGroups:
      first_flexible = 3;
      break;
    case ApiKey::kApiVersions:
      first_flexible = 3;
      break;
    case ApiKey::kCreateTopics:
      first_flexible = 5;
      break;
    case ApiKey::kInitProducerId:
      first_flexible = 2;
      break;
    case ApiKey::kSaslHandshake:
      return false;
    default:
      return false;
  }
  return version >= first_flexible;
}

Result<RequestHeader> decode_request_header(WireReader& reader) {
  RequestHeader header;
  header.api_key = static_cast<ApiKey>(reader.read_int16());
  header.api_version = reader.read_int16();
  header.correlation_id = reader.read_int32();
  header.client_id = reader.read_nullable_string();
  if (reader.ok() && is_flexible_request(header.api_key, header.api_version)) {
    reader.skip_tagged_fields();
  }
  if (!reader.ok()) return ErrorCode::kInvalidRequest;
  return header;
}

void encode_request_header(WireWriter& writer, const RequestHeader& header) {
  writer.write_int16(static_cast<std::int16_t>(header.api_key));
  writer.write_int16(header.api_version);
  writer.write_int32(header.correlation_id);
  writer.write_nullable_string(header.client_id);
  if (is_flexible_request(header.api_key, header.api_version)) {
    writer.write_empty_tagged_fields();
  }
}

void encode_response_header(WireWriter& writer, std::int32_t correlation_id) {
  writer.write_int32(correlation_id);
}

}  // namespace kgroups::protocol
