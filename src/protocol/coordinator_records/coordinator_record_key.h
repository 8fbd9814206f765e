// SPDX-License-Identifier: Apache-2.0
//
// CoordinatorRecordKey: the key of a record in Kafka's internal __consumer_offsets topic.
// The key opens with an int16 that names the record type (Kafka calls it the key's version);
// the fields after it are encoded as a non-flexible message (int16-length strings):
//   0, 1  offset commit          group, topic, partition
//   2     classic group metadata group
//   3     consumer group metadata, 4 its partition metadata, 6 its target assignment metadata:
//                                group
//   5     consumer group member metadata, 7 a member's target assignment, 8 a member's current
//         assignment:            group, member
// The value (another file per record type) is null for a tombstone, which compaction uses to
// delete the key. Thread-safe: plain values and pure functions.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/result.h"

namespace kgroups::protocol {

// Kafka's record types of __consumer_offsets (KIP-848's consumer groups from 3 on).
enum class CoordinatorRecordType : std::int16_t {
  kLegacyOffsetCommit = 0,  // the ZooKeeper-era key version of an offset commit; read only
  kOffsetCommit = 1,
  kGroupMetadata = 2,
  kConsumerGroupMetadata = 3,
  kConsumerGroupPartitionMetadata = 4,
  kConsumerGroupMemberMetadata = 5,
  kConsumerGroupTargetAssignmentMetadata = 6,
  kConsumerGroupTargetAssignmentMember = 7,
  kConsumerGroupCurrentMemberAssignment = 8,
};

// Kafka's name of the record type ("OffsetCommit", "GroupMetadata", ...), or "Unknown".
std::string_view coordinator_record_type_name(CoordinatorRecordType type);

struct CoordinatorRecordKey {
  CoordinatorRecordType type = CoordinatorRecordType::kOffsetCommit;
  std::string group_id;
  std::string topic;           // offset commits only
  std::int32_t partition = 0;  // offset commits only
  std::string member_id;       // member records (5, 7, 8) only

  bool operator==(const CoordinatorRecordKey&) const = default;

  // The encoded key. Strings longer than an int16 can say cannot be encoded: the caller keeps
  // ids within the broker's --max-id-length and topic names within 249 characters.
  [[nodiscard]] std::vector<std::uint8_t> encode() const;
  // Decodes a key; kCorruptMessage for bytes that are not one of the record types above or
  // that hold more or fewer bytes than its fields.
  static Result<CoordinatorRecordKey> decode(std::span<const std::uint8_t> bytes);

  static CoordinatorRecordKey offset_commit(std::string group_id, std::string topic,
                                            std::int32_t partition);
  static CoordinatorRecordKey group(CoordinatorRecordType type, std::string group_id);
  static CoordinatorRecordKey member(CoordinatorRecordType type, std::string group_id,
                                     std::string member_id);
};

}  // namespace kgroups::protocol
