// SPDX-License-Identifier: Apache-2.0

#include "protocol/messages/api_versions.h"

#include "protocol/api_key.h"

namespace kgroups::protocol {

Result<ApiVersionsRequest> ApiVersionsRequest::decode(WireReader& reader, std::int16_t version) {
  if (version < kMinVersion || version > kMaxVersion) return ErrorCode::kUnsupportedVersion;
  ApiVersionsRequest request;
  if (version >= 3) {
    request.client_software_name = reader.read_compact_string();
    request.client_software_version = reader.read_compact_string();
    reader.skip_tagged_fields();
  }
  if (!reader.ok()) return ErrorCode::kInvalidRequest;
  return request;
}

void ApiVersionsRequest::encode(WireWriter& writer, std::int16_t version) const {
  if (version >= 3) {
    writer.write_compact_string(client_software_name);
    writer.write_compact_string(client_software_version);
    writer.write_empty_tagged_fields();
  }
}

Result<ApiVersionsResponse> ApiVersionsResponse::decode(WireReader& reader, std::int16_t version) {
  if (version < kMinVersion || version > kMaxVersion) return ErrorCode::kUnsupportedVersion;
  ApiVersionsResponse response;
  response.error_code = static_cast<ErrorCode>(reader.read_int16());
  auto read_entry = [version](WireReader& r) {
    ApiVersion entry;
    entry.api_key = r.read_int16();
    entry.min_version = r.read_int16();
    entry.max_version = r.read_int16();
    if (version >= 3) r.skip_tagged_fields();
    return entry;
  };
  if (version >= 3) {
    const std::int32_t count = reader.read_compact_array_length(7);
    for (std::int32_t i = 0; i < count && reader.ok(); ++i) {
      response.api_keys.push_back(read_entry(reader));
    }
  } else {
    response.api_keys = reader.read_array<ApiVersion>(read_entry, 6);
  }
  if (version >= 1) response.throttle_time_ms = reader.read_int32();
  if (version >= 3) reader.skip_tagged_fields();
  if (!reader.ok()) return ErrorCode::kInvalidRequest;
  return response;
}

void ApiVersionsResponse::encode(WireWriter& writer, std::int16_t version) const {
  writer.write_int16(static_cast<std::int16_t>(error_code));
  if (version >= 3) {
    writer.write_compact_array_length(static_cast<std::int32_t>(api_keys.size()));
  } else {
    writer.write_array_length(static_cast<std::int32_t>(api_keys.size()));
  }
  for (const ApiVersion& entry : api_keys) {
    writer.write_int16(entry.api_key);
    writer.write_int16(entry.min_version);
    writer.write_int16(entry.max_version);
    if (version >= 3) writer.write_empty_tagged_fields();
  }
  if (version >= 1) writer.write_int32(throttle_time_ms);
  if (version >= 3) writer.write_empty_tagged_fields();
}

void ApiVersionsResponse::encode_unsupported_version(WireWriter& writer, std::int16_t min_version,
                                                     std::int16_t max_version) {
  ApiVersionsResponse answer;
  answer.error_code = ErrorCode::kUnsupportedVersion;
  answer.api_keys.push_back(
      {static_cast<std::int16_t>(ApiKey::kApiVersions), min_version, max_version});
  answer.encode(writer, 0);
}

}  // namespace kgroups::protocol
