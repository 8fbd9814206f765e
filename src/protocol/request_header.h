// SPDX-License-Identifier: Apache-2.0
//
// Request and response headers. Every request starts with header v1 (api_key, api_version,
// correlation_id, nullable client_id); flexible (KIP-482) versions use header v2, which adds
// a tagged-field section. Responses use header v0 (correlation_id only), or v1 (plus a
// tagged-field section) for flexible versions, except ApiVersions, whose response header is
// always v0. Which versions are flexible comes from the schemas (api_catalog.h).
// Thread-safe: free functions over caller state.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "protocol/api_key.h"
#include "protocol/result.h"
#include "protocol/wire_reader.h"
#include "protocol/wire_writer.h"

namespace kgroups::protocol {

struct RequestHeader {
  ApiKey api_key = ApiKey::kApiVersions;  // may hold a key the enum does not list
  std::int16_t api_version = 0;
  std::int32_t correlation_id = 0;            // echoed in the response header
  std::optional<std::string_view> client_id;  // views the frame; valid while it lives

  bool operator==(const RequestHeader&) const = default;
};

// True when `version` of `key` is a flexible version, so its request header is v2. False for
// keys this codec has no schema for.
bool is_flexible_request(ApiKey key, std::int16_t version);

// Reads a request header at the reader's position: v2 when is_flexible_request(), else v1.
// Leaves the reader at the first byte of the request body. Returns kInvalidRequest when the
// header is truncated or malformed. The header views the reader's buffer.
Result<RequestHeader> decode_request_header(WireReader& reader);

// Writes `header` as v2 when is_flexible_request(), else v1 (for clients and tests).
void encode_request_header(WireWriter& writer, const RequestHeader& header);

// True when the response to `version` of `key` has header v1: flexible, and not ApiVersions.
bool is_flexible_response(ApiKey key, std::int16_t version);

// Writes response header v1 when `flexible` (see is_flexible_response()), else v0.
void encode_response_header(WireWriter& writer, std::int32_t correlation_id, bool flexible = false);

}  // namespace kgroups::protocol
