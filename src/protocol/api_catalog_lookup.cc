// SPDX-License-Identifier: Apache-2.0

#include "protocol/api_catalog.h"

namespace kgroups::protocol {

const ApiCodec* find_api_codec(ApiKey key) {
  for (const ApiCodec& codec : api_codecs()) {
    if (codec.key == key) return &codec;
  }
  return nullptr;
}

bool is_flexible_version(ApiKey key, std::int16_t version) {
  const ApiCodec* codec = find_api_codec(key);
  return codec != nullptr && codec->first_flexible_version >= 0 &&
         version >= codec->first_flexible_version;
}

}  // namespace kgroups::protocol
