// SPDX-License-Identifier: Apache-2.0
#include "protocol/coordinator_records/group_metadata_value.h"

#include <optional>
#include <string_view>

#include "protocol/wire_reader.h"
#include "protocol/wire_writer.h"

namespace kgroups::protocol {
namespace {

// Writes strings and bytes in the form of the value's version: compact when flexible.
struct FieldWriter {
  WireWriter& writer;
  bool flexible;

  void string(std::string_view text) const {
    flexible ? writer.write_compact_string(text) : writer.write_string(text);
  }
  void nullable_string(const std::optional<std::string>& text) const {
    const std::optional<std::string_view> view =
        text ? std::optional<std::string_view>(*text) : std::nullopt;
    flexible ? writer.write_compact_nullable_string(view) : writer.write_nullable_string(view);
  }
  void bytes(const std::vector<std::uint8_t>& data) const {
    flexible ? writer.write_compact_bytes(data) : writer.write_bytes(data);
  }
};

struct FieldReader {
  WireReader& reader;
  bool flexible;

  std::string string() const {
    return std::string(flexible ? reader.read_compact_string() : reader.read_string());
  }
  std::optional<std::string> nullable_string() const {
    const std::optional<std::string_view> text =
        flexible ? reader.read_compact_nullable_string() : reader.read_nullable_string();
    return text ? std::optional<std::string>(*text) : std::nullopt;
  }
  std::vector<std::uint8_t> bytes() const {
    const ByteView data = flexible ? reader.read_compact_bytes() : reader.read_bytes();
    return {data.begin(), data.end()};
  }
};

}  // namespace

std::vector<std::uint8_t> GroupMetadataValue::encode() const {
  std::vector<std::uint8_t> out;
  WireWriter writer(out);
  const bool flexible = version >= 4;
  const FieldWriter write{writer, flexible};
  writer.write_int16(version);
  write.string(protocol_type);
  writer.write_int32(generation);
  write.nullable_string(protocol);
  write.nullable_string(leader);
  if (version >= 2) writer.write_int64(current_state_timestamp_ms);
  writer.write_count(members.size(), flexible);
  for (const GroupMetadataMember& member : members) {
    write.string(member.member_id);
    if (version >= 3) write.nullable_string(member.group_instance_id);
    write.string(member.client_id);
    write.string(member.client_host);
    if (version >= 1) writer.write_int32(member.rebalance_timeout_ms);
    writer.write_int32(member.session_timeout_ms);
    write.bytes(member.subscription);
    write.bytes(member.assignment);
    if (flexible) writer.write_empty_tagged_fields();
  }
  if (flexible) writer.write_empty_tagged_fields();
  return out;
}

Result<GroupMetadataValue> GroupMetadataValue::decode(std::span<const std::uint8_t> bytes) {
  WireReader reader(bytes);
  GroupMetadataValue value;
  value.version = reader.read_int16();
  if (!reader.ok() || value.version < 0 || value.version > kMaxVersion) {
    return ErrorCode::kCorruptMessage;
  }
  const bool flexible = value.version >= 4;
  const FieldReader read{reader, flexible};
  value.protocol_type = read.string();
  value.generation = reader.read_int32();
  value.protocol = read.nullable_string();
  value.leader = read.nullable_string();
  if (value.version >= 2) value.current_state_timestamp_ms = reader.read_int64();
  // A member takes at least its strings' lengths and two int32s: 4 + 2 * 4 bytes.
  const std::int32_t count =
      flexible ? reader.read_compact_array_length(12) : reader.read_array_length(12);
  for (std::int32_t i = 0; i < count && reader.ok(); ++i) {
    GroupMetadataMember& member = value.members.emplace_back();
    member.member_id = read.string();
    if (value.version >= 3) member.group_instance_id = read.nullable_string();
    member.client_id = read.string();
    member.client_host = read.string();
    if (value.version >= 1) member.rebalance_timeout_ms = reader.read_int32();
    member.session_timeout_ms = reader.read_int32();
    member.subscription = read.bytes();
    member.assignment = read.bytes();
    if (flexible) reader.skip_tagged_fields();
  }
  if (flexible) reader.skip_tagged_fields();
  if (!reader.ok() || reader.remaining() != 0) return ErrorCode::kCorruptMessage;
  return value;
}

}  // namespace kgroups::protocol
