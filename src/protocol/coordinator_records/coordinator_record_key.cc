// SPDX-License-Identifier: Apache-2.0
#include "protocol/coordinator_records/coordinator_record_key.h"

#include <utility>

#include "protocol/wire_reader.h"
#include "protocol/wire_writer.h"

namespace kgroups::protocol {
namespace {

enum class KeyFields { kGroup, kGroupAndMember, kOffset, kUnknown };

KeyFields fields_of(CoordinatorRecordType type) {
  switch (type) {
    case CoordinatorRecordType::kLegacyOffsetCommit:
    case CoordinatorRecordType::kOffsetCommit:
      return KeyFields::kOffset;
    case CoordinatorRecordType::kGroupMetadata:
    case CoordinatorRecordType::kConsumerGroupMetadata:
    case CoordinatorRecordType::kConsumerGroupPartitionMetadata:
    case CoordinatorRecordType::kConsumerGroupTargetAssignmentMetadata:
      return KeyFields::kGroup;
    case CoordinatorRecordType::kConsumerGroupMemberMetadata:
    case CoordinatorRecordType::kConsumerGroupTargetAssignmentMember:
    case CoordinatorRecordType::kConsumerGroupCurrentMemberAssignment:
      return KeyFields::kGroupAndMember;
  }
  return KeyFields::kUnknown;
}

}  // namespace

std::string_view coordinator_record_type_name(CoordinatorRecordType type) {
  switch (type) {
    case CoordinatorRecordType::kLegacyOffsetCommit:
      return "LegacyOffsetCommit";
    case CoordinatorRecordType::kOffsetCommit:
      return "OffsetCommit";
    case CoordinatorRecordType::kGroupMetadata:
      return "GroupMetadata";
    case CoordinatorRecordType::kConsumerGroupMetadata:
      return "ConsumerGroupMetadata";
    case CoordinatorRecordType::kConsumerGroupPartitionMetadata:
      return "ConsumerGroupPartitionMetadata";
    case CoordinatorRecordType::kConsumerGroupMemberMetadata:
      return "ConsumerGroupMemberMetadata";
    case CoordinatorRecordType::kConsumerGroupTargetAssignmentMetadata:
      return "ConsumerGroupTargetAssignmentMetadata";
    case CoordinatorRecordType::kConsumerGroupTargetAssignmentMember:
      return "ConsumerGroupTargetAssignmentMember";
    case CoordinatorRecordType::kConsumerGroupCurrentMemberAssignment:
      return "ConsumerGroupCurrentMemberAssignment";
  }
  return "Unknown";
}

std::vector<std::uint8_t> CoordinatorRecordKey::encode() const {
  std::vector<std::uint8_t> out;
  WireWriter writer(out);
  writer.write_int16(static_cast<std::int16_t>(type));
  writer.write_string(group_id);
  switch (fields_of(type)) {
    case KeyFields::kOffset:
      writer.write_string(topic);
      writer.write_int32(partition);
      break;
    case KeyFields::kGroupAndMember:
      writer.write_string(member_id);
      break;
    case KeyFields::kGroup:
    case KeyFields::kUnknown:
      break;
  }
  return out;
}

Result<CoordinatorRecordKey> CoordinatorRecordKey::decode(std::span<const std::uint8_t> bytes) {
  WireReader reader(bytes);
  CoordinatorRecordKey key;
  key.type = static_cast<CoordinatorRecordType>(reader.read_int16());
  const KeyFields fields = fields_of(key.type);
  if (fields == KeyFields::kUnknown) return ErrorCode::kCorruptMessage;
  key.group_id = std::string(reader.read_string());
  if (fields == KeyFields::kOffset) {
    key.topic = std::string(reader.read_string());
    key.partition = reader.read_int32();
  } else if (fields == KeyFields::kGroupAndMember) {
    key.member_id = std::string(reader.read_string());
  }
  if (!reader.ok() || reader.remaining() != 0) return ErrorCode::kCorruptMessage;
  return key;
}

CoordinatorRecordKey CoordinatorRecordKey::offset_commit(std::string group_id, std::string topic,
                                                         std::int32_t partition) {
  CoordinatorRecordKey key;
  key.type = CoordinatorRecordType::kOffsetCommit;
  key.group_id = std::move(group_id);
  key.topic = std::move(topic);
  key.partition = partition;
  return key;
}

CoordinatorRecordKey CoordinatorRecordKey::group(CoordinatorRecordType type, std::string group_id) {
  CoordinatorRecordKey key;
  key.type = type;
  key.group_id = std::move(group_id);
  return key;
}

CoordinatorRecordKey CoordinatorRecordKey::member(CoordinatorRecordType type, std::string group_id,
                                                  std::string member_id) {
  CoordinatorRecordKey key = group(type, std::move(group_id));
  key.member_id = std::move(member_id);
  return key;
}

}  // namespace kgroups::protocol
