// SPDX-License-Identifier: Apache-2.0
#include "protocol/coordinator_records/offset_commit_value.h"

#include "protocol/wire_reader.h"
#include "protocol/wire_writer.h"

namespace kgroups::protocol {

std::vector<std::uint8_t> OffsetCommitValue::encode() const {
  std::vector<std::uint8_t> out;
  WireWriter writer(out);
  const bool flexible = version >= 4;
  writer.write_int16(version);
  writer.write_int64(offset);
  if (version >= 3) writer.write_int32(leader_epoch);
  if (flexible) {
    writer.write_compact_string(metadata);
  } else {
    writer.write_string(metadata);
  }
  writer.write_int64(commit_timestamp_ms);
  if (version == 1) writer.write_int64(expire_timestamp_ms);
  if (flexible) writer.write_empty_tagged_fields();
  return out;
}

Result<OffsetCommitValue> OffsetCommitValue::decode(std::span<const std::uint8_t> bytes) {
  WireReader reader(bytes);
  OffsetCommitValue value;
  value.version = reader.read_int16();
  if (!reader.ok() || value.version < 0 || value.version > kMaxVersion) {
    return ErrorCode::kCorruptMessage;
  }
  const bool flexible = value.version >= 4;
  value.offset = reader.read_int64();
  if (value.version >= 3) value.leader_epoch = reader.read_int32();
  value.metadata = std::string(flexible ? reader.read_compact_string() : reader.read_string());
  value.commit_timestamp_ms = reader.read_int64();
  if (value.version == 1) value.expire_timestamp_ms = reader.read_int64();
  if (flexible) reader.skip_tagged_fields();
  if (!reader.ok() || reader.remaining() != 0) return ErrorCode::kCorruptMessage;
  return value;
}

}  // namespace kgroups::protocol
