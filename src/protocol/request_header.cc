// SPDX-License-Identifier: Apache-2.0

#include "protocol/request_header.h"

namespace kgroups::protocol {

namespace {

struct FirstFlexibleVersion {
  ApiKey key;
  std::int16_t version;
};

// Kafka 3.6's first flexible version of each API this codec knows.
constexpr FirstFlexibleVersion kFirstFlexibleVersions[] = {
    {ApiKey::kProduce, 9},         {ApiKey::kFetch, 12},       {ApiKey::kListOffsets, 6},
    {ApiKey::kMetadata, 9},        {ApiKey::kOffsetCommit, 8}, {ApiKey::kOffsetFetch, 6},
    {ApiKey::kFindCoordinator, 3}, {ApiKey::kJoinGroup, 6},    {ApiKey::kHeartbeat, 4},
    {ApiKey::kLeaveGroup, 4},      {ApiKey::kSyncGroup, 4},    {ApiKey::kDescribeGroups, 5},
    {ApiKey::kListGroups, 3},      {ApiKey::kApiVersions, 3},  {ApiKey::kCreateTopics, 5},
    {ApiKey::kInitProducerId, 2},
};

}  // namespace

bool is_flexible_request(ApiKey key, std::int16_t version) {
  for (const FirstFlexibleVersion& entry : kFirstFlexibleVersions) {
    if (entry.key == key) return version >= entry.version;
  }
  return false;  // SaslHandshake has no flexible version; unknown keys are read as v1
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
