// SPDX-License-Identifier: Apache-2.0
//
// ApiVersions (key 18): v0-3.
// - v0: empty request; response error_code + [api_key, min_version, max_version].
// - v1-2: the response adds throttle_time_ms.
// - v3 (flexible): the request carries client_software_name/version (compact strings);
//   the response uses compact arrays and tagged fields. A broker that does not advertise v3
//   answers it with encode_unsupported_version(), in v0 layout, as Kafka does.
// Requests view the frame (valid while it lives); responses own their data.
// Thread-safe: plain values.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "protocol/error_code.h"
#include "protocol/result.h"
#include "protocol/wire_reader.h"
#include "protocol/wire_writer.h"

namespace kgroups::protocol {

struct ApiVersionsRequest {
  static constexpr std::int16_t kMinVersion = 0;
  static constexpr std::int16_t kMaxVersion = 3;

  std::string_view client_software_name;     // v3+
  std::string_view client_software_version;  // v3+

  // Errors: kUnsupportedVersion outside kMinVersion..kMaxVersion; kInvalidRequest when the
  // body is truncated or malformed.
  static Result<ApiVersionsRequest> decode(WireReader& reader, std::int16_t version);
  void encode(WireWriter& writer, std::int16_t version) const;
  bool operator==(const ApiVersionsRequest&) const = default;
};

struct ApiVersionsResponse {
  static constexpr std::int16_t kMinVersion = 0;
  static constexpr std::int16_t kMaxVersion = 3;

  struct ApiVersion {
    std::int16_t api_key = 0;
    std::int16_t min_version = 0;
    std::int16_t max_version = 0;
    bool operator==(const ApiVersion&) const = default;
  };

  ErrorCode error_code = ErrorCode::kNone;
  std::vector<ApiVersion> api_keys;
  std::int32_t throttle_time_ms = 0;  // v1+

  static Result<ApiVersionsResponse> decode(WireReader& reader, std::int16_t version);
  void encode(WireWriter& writer, std::int16_t version) const;
  bool operator==(const ApiVersionsResponse&) const = default;

  // Writes the body Kafka sends for an ApiVersions version it does not support: v0 layout,
  // UNSUPPORTED_VERSION, and one entry giving ApiVersions' own supported range, so that
  // librdkafka retries with a lower version. Use response header v0 before it.
  static void encode_unsupported_version(WireWriter& writer, std::int16_t min_version,
                                         std::int16_t max_version);
};

}  // namespace kgroups::protocol
