// SPDX-License-Identifier: Apache-2.0
//
// The codes DescribeUserScramCredentials and AlterUserScramCredentials give SCRAM mechanisms on
// the wire (Kafka's org.apache.kafka.clients.admin.ScramMechanism: 0 UNKNOWN, 1 SCRAM-SHA-256,
// 2 SCRAM-SHA-512), to and from the broker's ScramMechanism.
// Thread-safe: pure functions.
#pragma once

#include <cstdint>
#include <optional>

#include "broker/security/scram_keys.h"

namespace kgroups::broker {

inline constexpr std::int8_t kScramSha256Code = 1;
inline constexpr std::int8_t kScramSha512Code = 2;

inline std::int8_t scram_mechanism_code(ScramMechanism mechanism) {
  return mechanism == ScramMechanism::kSha256 ? kScramSha256Code : kScramSha512Code;
}

// The mechanism a code names, or nullopt for 0 (UNKNOWN) and codes Kafka does not define.
inline std::optional<ScramMechanism> scram_mechanism_from_code(std::int8_t code) {
  if (code == kScramSha256Code) return ScramMechanism::kSha256;
  if (code == kScramSha512Code) return ScramMechanism::kSha512;
  return std::nullopt;
}

}  // namespace kgroups::broker
