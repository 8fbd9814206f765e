// SPDX-License-Identifier: Apache-2.0
//
// The transaction APIs' answer for a fenced producer: PRODUCER_FENCED from the version that
// introduced it (KIP-588), INVALID_PRODUCER_EPOCH before, as Kafka's KafkaApis maps it.
#pragma once

#include <cstdint>

#include "protocol/error_code.h"

namespace kgroups::broker::handlers {

inline protocol::ErrorCode fenced_for_version(protocol::ErrorCode error, std::int16_t version,
                                              std::int16_t first_version_with_fenced) {
  if (error == protocol::ErrorCode::kProducerFenced && version < first_version_with_fenced) {
    return protocol::ErrorCode::kInvalidProducerEpoch;
  }
  return error;
}

}  // namespace kgroups::broker::handlers
