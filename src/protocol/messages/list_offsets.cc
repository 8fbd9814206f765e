// SPDX-License-Identifier: Apache-2.0

#include "protocol/messages/list_offsets.h"

namespace kgroups::protocol {

Result<ListOffsetsRequest> ListOffsetsRequest::decode(WireReader& reader, std::int16_t version) {
  if (version < kMinVersion || version > kMaxVersion) return ErrorCode::kUnsupportedVersion;
  ListOffsetsRequest request;
  request.replica_id = reader.read_int32();
  if (version >= 2) request.isolation_level = reader.read_int8();
  request.topics = reader.read_array<Topic>(
      [version](WireReader& r) {
        Topic topic;
        topic.name = r.read_string();
        topic.partitions = r.read_array<Partition>(
            [version](WireReader& p) {
              Partition partition;
              partition.partition_index = p.read_int32();
              if (version >= 4) partition.current_leader_epoch = p.read_int32();
              partition.timestamp = p.read_int64();
              if (version == 0) partition.max_num_offsets = p.read_int32();
              return partition;
            },
            12);
        return topic;
      },
      6);
  if (!reader.ok()) return ErrorCode::kInvalidRequest;
  return request;
}

void ListOffsetsRequest::encode(WireWriter& writer, std::int16_t version) const {
  writer.write_int32(replica_id);
  if (version >= 2) writer.write_int8(isolation_level);
  writer.write_array(topics, [version](WireWriter& w, const Topic& topic) {
    w.write_string(topic.name);
    w.write_array(topic.partitions, [version](WireWriter& p, const Partition& partition) {
      p.write_int32(partition.partition_index);
      if (version >= 4) p.write_int32(partition.current_leader_epoch);
      p.write_int64(partition.timestamp);
      if (version == 0) p.write_int32(partition.max_num_offsets);
    });
  });
}

Result<ListOffsetsResponse> ListOffsetsResponse::decode(WireReader& reader, std::int16_t version) {
  if (version < kMinVersion || version > kMaxVersion) return ErrorCode::kUnsupportedVersion;
  ListOffsetsResponse response;
  if (version >= 2) response.throttle_time_ms = reader.read_int32();
  response.topics = reader.read_array<Topic>(
      [version](WireReader& r) {
        Topic topic;
        topic.name = r.read_string();
        topic.partitions = r.read_array<Partition>(
            [version](WireReader& p) {
              Partition partition;
              partition.partition_index = p.read_int32();
              partition.error_code = static_cast<ErrorCode>(p.read_int16());
              if (version == 0) {
                partition.old_style_offsets =
                    p.read_array<std::int64_t>([](WireReader& o) { return o.read_int64(); }, 8);
              } else {
                partition.timestamp = p.read_int64();
                partition.offset = p.read_int64();
              }
              if (version >= 4) partition.leader_epoch = p.read_int32();
              return partition;
            },
            10);
        return topic;
      },
      6);
  if (!reader.ok()) return ErrorCode::kInvalidRequest;
  return response;
}

void ListOffsetsResponse::encode(WireWriter& writer, std::int16_t version) const {
  if (version >= 2) writer.write_int32(throttle_time_ms);
  writer.write_array(topics, [version](WireWriter& w, const Topic& topic) {
    w.write_string(topic.name);
    w.write_array(topic.partitions, [version](WireWriter& p, const Partition& partition) {
      p.write_int32(partition.partition_index);
      p.write_int16(static_cast<std::int16_t>(partition.error_code));
      if (version == 0) {
        p.write_array(partition.old_style_offsets,
                      [](WireWriter& o, std::int64_t offset) { o.write_int64(offset); });
      } else {
        p.write_int64(partition.timestamp);
        p.write_int64(partition.offset);
      }
      if (version >= 4) p.write_int32(partition.leader_epoch);
    });
  });
}

}  // namespace kgroups::protocol
