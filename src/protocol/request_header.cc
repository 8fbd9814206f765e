// SPDX-License-Identifier: Apache-2.0

#include "protocol/request_header.h"

#include "protocol/api_catalog.h"

namespace kgroups::protocol {

bool is_flexible_request(ApiKey key, std::int16_t version) {
  // SaslHandshake has no flexible version and no schema; unknown keys are read as v1.
  return is_flexible_version(key, version);
}

bool is_flexible_response(ApiKey key, std::int16_t version) {
  return key != ApiKey::kApiVersions && is_flexible_version(key, version);
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

void encode_response_header(WireWriter& writer, std::int32_t correlation_id, bool flexible) {
  writer.write_int32(correlation_id);
  if (flexible) writer.write_empty_tagged_fields();
}

}  // namespace kgroups::protocol
