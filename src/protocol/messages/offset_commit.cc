// SPDX-License-Identifier: Apache-2.0

#include "protocol/messages/offset_commit.h"

namespace kgroups::protocol {

Result<OffsetCommitRequest> OffsetCommitRequest::decode(WireReader& reader, std::int16_t version) {
  if (version < kMinVersion || version > kMaxVersion) return ErrorCode::kUnsupportedVersion;
  OffsetCommitRequest request;
  request.group_id = reader.read_string();
  if (version >= 1) {
    request.generation_id = reader.read_int32();
    request.member_id = reader.read_string();
  }
  if (version >= 7) request.group_instance_id = reader.read_nullable_string();
  if (version >= 2 && version <= 4) request.retention_time_ms = reader.read_int64();
  request.topics = reader.read_array<Topic>(
      [version](WireReader& r) {
        Topic topic;
        topic.name = r.read_string();
        topic.partitions = r.read_array<Partition>(
            [version](WireReader& p) {
              Partition partition;
              partition.partition_index = p.read_int32();
              partition.committed_offset = p.read_int64();
              if (version >= 6) partition.committed_leader_epoch = p.read_int32();
              if (version == 1) partition.commit_timestamp = p.read_int64();
              partition.committed_metadata = p.read_nullable_string();
              return partition;
            },
            14);
        return topic;
      },
      6);
  if (!reader.ok()) return ErrorCode::kInvalidRequest;
  return request;
}

void OffsetCommitRequest::encode(WireWriter& writer, std::int16_t version) const {
  writer.write_string(group_id);
  if (version >= 1) {
    writer.write_int32(generation_id);
    writer.write_string(member_id);
  }
  if (version >= 7) writer.write_nullable_string(group_instance_id);
  if (version >= 2 && version <= 4) writer.write_int64(retention_time_ms);
  writer.write_array(topics, [version](WireWriter& w, const Topic& topic) {
    w.write_string(topic.name);
    w.write_array(topic.partitions, [version](WireWriter& p, const Partition& partition) {
      p.write_int32(partition.partition_index);
      p.write_int64(partition.committed_offset);
      if (version >= 6) p.write_int32(partition.committed_leader_epoch);
      if (version == 1) p.write_int64(partition.commit_timestamp);
      p.write_nullable_string(partition.committed_metadata);
    });
  });
}

Result<OffsetCommitResponse> OffsetCommitResponse::decode(WireReader& reader,
                                                          std::int16_t version) {
  if (version < kMinVersion || version > kMaxVersion) return ErrorCode::kUnsupportedVersion;
  OffsetCommitResponse response;
  if (version >= 3) response.throttle_time_ms = reader.read_int32();
  response.topics = reader.read_array<Topic>(
      [](WireReader& r) {
        Topic topic;
        topic.name = r.read_string();
        topic.partitions = r.read_array<Partition>(
            [](WireReader& p) {
              Partition partition;
              partition.partition_index = p.read_int32();
              partition.error_code = static_cast<ErrorCode>(p.read_int16());
              return partition;
            },
            6);
        return topic;
      },
      6);
  if (!reader.ok()) return ErrorCode::kInvalidRequest;
  return response;
}

void OffsetCommitResponse::encode(WireWriter& writer, std::int16_t version) const {
  if (version >= 3) writer.write_int32(throttle_time_ms);
  writer.write_array(topics, [](WireWriter& w, const Topic& topic) {
    w.write_string(topic.name);
    w.write_array(topic.partitions, [](WireWriter& p, const Partition& partition) {
      p.write_int32(partition.partition_index);
      p.write_int16(static_cast<std::int16_t>(partition.error_code));
    });
  });
}

}  // namespace kgroups::protocol
