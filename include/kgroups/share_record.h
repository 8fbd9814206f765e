// SPDX-License-Identifier: Apache-2.0
//
// What a share group's member receives and sends back (SPEC.md, "Share groups"):
// a ShareRecord is a record acquired for the member, with how many times it has
// been delivered; an AcknowledgeType says what the member did with it (Kafka's
// KIP-932 names, with their wire numbers).
#pragma once

#include <cstdint>

#include "kgroups/record.h"

namespace kgroups {

enum class AcknowledgeType : std::uint8_t {
  kGap = 0,      // not a record (a wire-only value: the broker's clients acknowledge gaps)
  kAccept = 1,   // processed: never delivered again
  kRelease = 2,  // give it back: delivered again, to any member, with a higher count
  kReject = 3,   // unprocessable: never delivered again (archived)
};

struct ShareRecord {
  Record record;
  int delivery_count = 0;  // 1 on the first delivery

  friend bool operator==(const ShareRecord&, const ShareRecord&) = default;
};

}  // namespace kgroups
