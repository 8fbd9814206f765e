// SPDX-License-Identifier: Apache-2.0
//
// OffsetCommitValue: the value of an offset commit record of __consumer_offsets (key type 1),
// in Kafka's versions 0-4. It opens with its int16 version; then
//   v0, v2  offset, metadata, commit timestamp
//   v1      offset, metadata, commit timestamp, expire timestamp
//   v3      offset, leader epoch, metadata, commit timestamp
//   v4      as v3, flexible (compact string, tagged fields)
// The broker writes kWrittenVersion (3), as Kafka 3.x and 4.x do for a commit without a
// per-commit expiry, so every consumer of the topic decodes it. Thread-safe: plain values and
// pure functions.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "protocol/result.h"

namespace kgroups::protocol {

struct OffsetCommitValue {
  static constexpr std::int16_t kWrittenVersion = 3;
  static constexpr std::int16_t kMaxVersion = 4;

  std::int16_t version = kWrittenVersion;  // the version decoded, or to encode
  std::int64_t offset = 0;
  std::int32_t leader_epoch = -1;         // v3+; -1: unknown
  std::string metadata;                   // the client's free-form string
  std::int64_t commit_timestamp_ms = 0;   // wall clock, ms since the epoch
  std::int64_t expire_timestamp_ms = -1;  // v1 only; -1: none

  bool operator==(const OffsetCommitValue&) const = default;

  // The value in `version` (0-4; fields the version lacks are left out).
  [[nodiscard]] std::vector<std::uint8_t> encode() const;
  // Decodes any of versions 0-4; kCorruptMessage for another version or malformed bytes.
  // Fields a version lacks keep their defaults.
  static Result<OffsetCommitValue> decode(std::span<const std::uint8_t> bytes);
};

}  // namespace kgroups::protocol
