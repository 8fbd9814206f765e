// SPDX-License-Identifier: Apache-2.0
#include "protocol/coordinator_records/consumer_group_record_values.h"

#include <string_view>

#include "protocol/wire_reader.h"
#include "protocol/wire_writer.h"

namespace kgroups::protocol {
namespace {

void write_nullable(WireWriter& writer, const std::optional<std::string>& text) {
  writer.write_compact_nullable_string(text ? std::optional<std::string_view>(*text)
                                            : std::nullopt);
}

std::optional<std::string> read_nullable(WireReader& reader) {
  const std::optional<std::string_view> text = reader.read_compact_nullable_string();
  return text ? std::optional<std::string>(*text) : std::nullopt;
}

void write_partitions(WireWriter& writer,
                      const std::vector<ConsumerGroupRecordPartitions>& topics) {
  writer.write_count(topics.size(), true);
  for (const ConsumerGroupRecordPartitions& topic : topics) {
    writer.write_uuid(topic.topic_id);
    writer.write_count(topic.partitions.size(), true);
    for (const std::int32_t partition : topic.partitions) writer.write_int32(partition);
    writer.write_empty_tagged_fields();
  }
}

std::vector<ConsumerGroupRecordPartitions> read_partitions(WireReader& reader) {
  std::vector<ConsumerGroupRecordPartitions> topics;
  // A topic takes its 16-byte id, a count and a tagged-field count.
  const std::int32_t count = reader.read_compact_array_length(18);
  for (std::int32_t i = 0; i < count && reader.ok(); ++i) {
    ConsumerGroupRecordPartitions& topic = topics.emplace_back();
    topic.topic_id = reader.read_uuid();
    const std::int32_t partitions = reader.read_compact_array_length(4);
    for (std::int32_t p = 0; p < partitions && reader.ok(); ++p) {
      topic.partitions.push_back(reader.read_int32());
    }
    reader.skip_tagged_fields();
  }
  return topics;
}

// Opens a version-0 value: false (the reader failed) for any other version.
bool read_version_zero(WireReader& reader) {
  if (reader.read_int16() != 0) reader.fail();
  return reader.ok();
}

// Closes a value: its tagged fields, and nothing after them.
bool finish(WireReader& reader) {
  reader.skip_tagged_fields();
  return reader.ok() && reader.remaining() == 0;
}

}  // namespace

std::vector<std::uint8_t> ConsumerGroupMetadataValue::encode() const {
  std::vector<std::uint8_t> out;
  WireWriter writer(out);
  writer.write_int16(version);
  writer.write_int32(epoch);
  writer.write_empty_tagged_fields();
  return out;
}

Result<ConsumerGroupMetadataValue> ConsumerGroupMetadataValue::decode(
    std::span<const std::uint8_t> bytes) {
  WireReader reader(bytes);
  ConsumerGroupMetadataValue value;
  if (!read_version_zero(reader)) return ErrorCode::kCorruptMessage;
  value.epoch = reader.read_int32();
  if (!finish(reader)) return ErrorCode::kCorruptMessage;
  return value;
}

std::vector<std::uint8_t> ConsumerGroupMemberMetadataValue::encode() const {
  std::vector<std::uint8_t> out;
  WireWriter writer(out);
  writer.write_int16(version);
  write_nullable(writer, instance_id);
  write_nullable(writer, rack_id);
  writer.write_compact_string(client_id);
  writer.write_compact_string(client_host);
  writer.write_count(subscribed_topic_names.size(), true);
  for (const std::string& name : subscribed_topic_names) writer.write_compact_string(name);
  write_nullable(writer, subscribed_topic_regex);
  writer.write_int32(rebalance_timeout_ms);
  write_nullable(writer, server_assignor);
  writer.write_empty_tagged_fields();
  return out;
}

Result<ConsumerGroupMemberMetadataValue> ConsumerGroupMemberMetadataValue::decode(
    std::span<const std::uint8_t> bytes) {
  WireReader reader(bytes);
  ConsumerGroupMemberMetadataValue value;
  if (!read_version_zero(reader)) return ErrorCode::kCorruptMessage;
  value.instance_id = read_nullable(reader);
  value.rack_id = read_nullable(reader);
  value.client_id = std::string(reader.read_compact_string());
  value.client_host = std::string(reader.read_compact_string());
  const std::int32_t names = reader.read_compact_array_length(1);
  for (std::int32_t i = 0; i < names && reader.ok(); ++i) {
    value.subscribed_topic_names.emplace_back(reader.read_compact_string());
  }
  value.subscribed_topic_regex = read_nullable(reader);
  value.rebalance_timeout_ms = reader.read_int32();
  value.server_assignor = read_nullable(reader);
  if (!finish(reader)) return ErrorCode::kCorruptMessage;
  return value;
}

std::vector<std::uint8_t> ConsumerGroupTargetAssignmentMetadataValue::encode() const {
  std::vector<std::uint8_t> out;
  WireWriter writer(out);
  writer.write_int16(version);
  writer.write_int32(assignment_epoch);
  writer.write_empty_tagged_fields();
  return out;
}

Result<ConsumerGroupTargetAssignmentMetadataValue>
ConsumerGroupTargetAssignmentMetadataValue::decode(std::span<const std::uint8_t> bytes) {
  WireReader reader(bytes);
  ConsumerGroupTargetAssignmentMetadataValue value;
  if (!read_version_zero(reader)) return ErrorCode::kCorruptMessage;
  value.assignment_epoch = reader.read_int32();
  if (!finish(reader)) return ErrorCode::kCorruptMessage;
  return value;
}

std::vector<std::uint8_t> ConsumerGroupTargetAssignmentMemberValue::encode() const {
  std::vector<std::uint8_t> out;
  WireWriter writer(out);
  writer.write_int16(version);
  write_partitions(writer, topic_partitions);
  writer.write_empty_tagged_fields();
  return out;
}

Result<ConsumerGroupTargetAssignmentMemberValue> ConsumerGroupTargetAssignmentMemberValue::decode(
    std::span<const std::uint8_t> bytes) {
  WireReader reader(bytes);
  ConsumerGroupTargetAssignmentMemberValue value;
  if (!read_version_zero(reader)) return ErrorCode::kCorruptMessage;
  value.topic_partitions = read_partitions(reader);
  if (!finish(reader)) return ErrorCode::kCorruptMessage;
  return value;
}

std::vector<std::uint8_t> ConsumerGroupCurrentMemberAssignmentValue::encode() const {
  std::vector<std::uint8_t> out;
  WireWriter writer(out);
  writer.write_int16(version);
  writer.write_int32(member_epoch);
  writer.write_int32(previous_member_epoch);
  writer.write_int8(state);
  write_partitions(writer, assigned_partitions);
  write_partitions(writer, partitions_pending_revocation);
  writer.write_empty_tagged_fields();
  return out;
}

Result<ConsumerGroupCurrentMemberAssignmentValue> ConsumerGroupCurrentMemberAssignmentValue::decode(
    std::span<const std::uint8_t> bytes) {
  WireReader reader(bytes);
  ConsumerGroupCurrentMemberAssignmentValue value;
  if (!read_version_zero(reader)) return ErrorCode::kCorruptMessage;
  value.member_epoch = reader.read_int32();
  value.previous_member_epoch = reader.read_int32();
  value.state = reader.read_int8();
  value.assigned_partitions = read_partitions(reader);
  value.partitions_pending_revocation = read_partitions(reader);
  if (!finish(reader)) return ErrorCode::kCorruptMessage;
  return value;
}

}  // namespace kgroups::protocol
