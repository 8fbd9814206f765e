// SPDX-License-Identifier: Apache-2.0
//
// GroupMetadataValue: the value of a classic group's metadata record of __consumer_offsets
// (key type 2), in Kafka's versions 0-4: the protocol type, generation, selected protocol,
// leader and each member's ids, timeouts, subscription and assignment bytes. It opens with
// its int16 version; v1 adds each member's rebalance timeout, v2 the time the group entered
// its state, v3 each member's group instance id, v4 is flexible. The broker writes
// kWrittenVersion (3), as Kafka 3.x and 4.x do. An Empty group is written with no members and
// a null protocol and leader. Thread-safe: plain values and pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "protocol/result.h"

namespace kgroups::protocol {

struct GroupMetadataMember {
  std::string member_id;
  std::optional<std::string> group_instance_id;  // v3+
  std::string client_id;
  std::string client_host;
  std::int32_t rebalance_timeout_ms = 0;  // v1+
  std::int32_t session_timeout_ms = 0;
  std::vector<std::uint8_t> subscription;  // the member's metadata for the selected protocol
  std::vector<std::uint8_t> assignment;    // from the leader's SyncGroup

  bool operator==(const GroupMetadataMember&) const = default;
};

struct GroupMetadataValue {
  static constexpr std::int16_t kWrittenVersion = 3;
  static constexpr std::int16_t kMaxVersion = 4;

  std::int16_t version = kWrittenVersion;
  std::string protocol_type;
  std::int32_t generation = 0;
  std::optional<std::string> protocol;           // null for an Empty group
  std::optional<std::string> leader;             // null for an Empty group
  std::int64_t current_state_timestamp_ms = -1;  // v2+; wall clock, ms; -1: unknown
  std::vector<GroupMetadataMember> members;

  bool operator==(const GroupMetadataValue&) const = default;

  // The value in `version` (0-4; fields the version lacks are left out). Sizes must fit
  // their fields (ids within int16, bytes within int32).
  [[nodiscard]] std::vector<std::uint8_t> encode() const;
  // Decodes any of versions 0-4; kCorruptMessage for another version or malformed bytes.
  static Result<GroupMetadataValue> decode(std::span<const std::uint8_t> bytes);
};

}  // namespace kgroups::protocol
