// SPDX-License-Identifier: Apache-2.0
//
// Whole Kafka frames: an int32 size prefix (the bytes that follow), then a header and a
// body. These helpers append a complete request or response frame to a caller-owned buffer,
// for clients, tests and the broker's responses. Thread-safe: free functions over caller
// state; `out` must not be shared while they run.
#pragma once

#include <cstdint>
#include <vector>

#include "protocol/request_header.h"
#include "protocol/wire_writer.h"

namespace kgroups::protocol {

// Appends size prefix + request header (v1, or v2 for flexible versions) + `request`
// encoded at header.api_version.
template <class Request>
void encode_request_frame(std::vector<std::uint8_t>& out, const RequestHeader& header,
                          const Request& request) {
  WireWriter writer(out);
  const std::size_t size_position = writer.reserve_int32();
  encode_request_header(writer, header);
  request.encode(writer, header.api_version);
  writer.patch_int32(size_position, static_cast<std::int32_t>(writer.size() - size_position - 4));
}

// Appends size prefix + response header v0 + `response` encoded at `version`.
template <class Response>
void encode_response_frame(std::vector<std::uint8_t>& out, std::int32_t correlation_id,
                           const Response& response, std::int16_t version) {
  WireWriter writer(out);
  const std::size_t size_position = writer.reserve_int32();
  encode_response_header(writer, correlation_id);
  response.encode(writer, version);
  writer.patch_int32(size_position, static_cast<std::int32_t>(writer.size() - size_position - 4));
}

}  // namespace kgroups::protocol
