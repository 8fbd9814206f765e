// SPDX-License-Identifier: Apache-2.0
//
// The values of the consumer-group protocol's (KIP-848) records of __consumer_offsets, in
// version 0, the one Kafka 4.x writes (flexible: compact strings and arrays, a tagged-field
// section after each struct; tagged fields are skipped when read, none are written):
//   3  ConsumerGroupMetadataValue                  the group epoch
//   5  ConsumerGroupMemberMetadataValue            a member's ids, subscription, assignor
//   6  ConsumerGroupTargetAssignmentMetadataValue  the epoch of the target assignment
//   7  ConsumerGroupTargetAssignmentMemberValue    a member's partitions in it
//   8  ConsumerGroupCurrentMemberAssignmentValue   a member's epochs, state and partitions
// Each opens with its int16 version. Thread-safe: plain values and pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "protocol/result.h"
#include "protocol/uuid.h"

namespace kgroups::protocol {

// A topic's partitions, by topic id, as the assignment records list them.
struct ConsumerGroupRecordPartitions {
  Uuid topic_id{};
  std::vector<std::int32_t> partitions;

  bool operator==(const ConsumerGroupRecordPartitions&) const = default;
};

struct ConsumerGroupMetadataValue {
  std::int16_t version = 0;
  std::int32_t epoch = 0;

  bool operator==(const ConsumerGroupMetadataValue&) const = default;
  [[nodiscard]] std::vector<std::uint8_t> encode() const;
  // kCorruptMessage for a version other than 0 or malformed bytes (so for each below).
  static Result<ConsumerGroupMetadataValue> decode(std::span<const std::uint8_t> bytes);
};

struct ConsumerGroupMemberMetadataValue {
  std::int16_t version = 0;
  std::optional<std::string> instance_id;
  std::optional<std::string> rack_id;
  std::string client_id;
  std::string client_host;
  std::vector<std::string> subscribed_topic_names;
  std::optional<std::string> subscribed_topic_regex;
  std::int32_t rebalance_timeout_ms = -1;
  std::optional<std::string> server_assignor;

  bool operator==(const ConsumerGroupMemberMetadataValue&) const = default;
  [[nodiscard]] std::vector<std::uint8_t> encode() const;
  static Result<ConsumerGroupMemberMetadataValue> decode(std::span<const std::uint8_t> bytes);
};

struct ConsumerGroupTargetAssignmentMetadataValue {
  std::int16_t version = 0;
  std::int32_t assignment_epoch = 0;

  bool operator==(const ConsumerGroupTargetAssignmentMetadataValue&) const = default;
  [[nodiscard]] std::vector<std::uint8_t> encode() const;
  static Result<ConsumerGroupTargetAssignmentMetadataValue> decode(
      std::span<const std::uint8_t> bytes);
};

struct ConsumerGroupTargetAssignmentMemberValue {
  std::int16_t version = 0;
  std::vector<ConsumerGroupRecordPartitions> topic_partitions;

  bool operator==(const ConsumerGroupTargetAssignmentMemberValue&) const = default;
  [[nodiscard]] std::vector<std::uint8_t> encode() const;
  static Result<ConsumerGroupTargetAssignmentMemberValue> decode(
      std::span<const std::uint8_t> bytes);
};

struct ConsumerGroupCurrentMemberAssignmentValue {
  std::int16_t version = 0;
  std::int32_t member_epoch = 0;
  std::int32_t previous_member_epoch = 0;
  std::int8_t state = 0;  // Kafka's MemberState: 0 stable, 1 unrevoked partitions, 2 unreleased
                          // partitions, 3 unknown
  std::vector<ConsumerGroupRecordPartitions> assigned_partitions;
  std::vector<ConsumerGroupRecordPartitions> partitions_pending_revocation;

  bool operator==(const ConsumerGroupCurrentMemberAssignmentValue&) const = default;
  [[nodiscard]] std::vector<std::uint8_t> encode() const;
  static Result<ConsumerGroupCurrentMemberAssignmentValue> decode(
      std::span<const std::uint8_t> bytes);
};

}  // namespace kgroups::protocol
