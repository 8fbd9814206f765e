// SPDX-License-Identifier: Apache-2.0
//
// The API catalog: for every API the codec has a schema for (src/protocol/schema/), the
// versions its generated messages decode and encode and the first flexible (KIP-482) one.
// Generated with the messages (api_catalog.cc), so headers and messages cannot disagree on
// which versions are flexible. Thread-safe: constant data.
#pragma once

#include <cstdint>
#include <span>

#include "protocol/api_key.h"

namespace kgroups::protocol {

struct ApiCodec {
  ApiKey key;
  std::int16_t min_version;
  std::int16_t max_version;
  std::int16_t first_flexible_version;  // -1: no version is flexible
};

// Every API with a schema, ordered by key.
std::span<const ApiCodec> api_codecs();

// The codec row of `key`, or nullptr.
const ApiCodec* find_api_codec(ApiKey key);

// True when `version` of `key` uses flexible encodings (request header v2, response header
// v1 except for ApiVersions, compact fields, tagged fields). False for keys without a schema.
bool is_flexible_version(ApiKey key, std::int16_t version);

}  // namespace kgroups::protocol
