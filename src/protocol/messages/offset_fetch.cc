// SPDX-License-Identifier: Apache-2.0

#include "protocol/messages/offset_fetch.h"

#include "protocol/messages/owned_fields.h"

namespace kgroups::protocol {

Result<OffsetFetchRequest> OffsetFetchRequest::decode(WireReader& reader, std::int16_t version) {
  if (version < kMinVersion || version > kMaxVersion) return ErrorCode::kUnsupportedVersion;
  OffsetFetchRequest request;
  request.group_id = reader.read_string();
  auto read_topic = [](WireReader& r) {
    Topic topic;
    topic.name = r.read_string();
    topic.partition_indexes = r.read_array<std::int32_t>(read_int32_element, 4);
    return topic;
  };
  if (version >= 2) {
    request.topics = reader.read_nullable_array<Topic>(read_topic, 6);
  } else {
    request.topics = reader.read_array<Topic>(read_topic, 6);
  }
  if (!reader.ok()) return ErrorCode::kInvalidRequest;
  return request;
}

void OffsetFetchRequest::encode(WireWriter& writer, std::int16_t version) const {
  writer.write_string(group_id);
  auto write_topic = [](WireWriter& w, const Topic& topic) {
    w.write_string(topic.name);
    w.write_array(topic.partition_indexes, write_int32_element);
  };
  if (version >= 2) {
    writer.write_nullable_array(topics, write_topic);
  } else {
    writer.write_array(topics.value_or(std::vector<Topic>{}), write_topic);
  }
}

Result<OffsetFetchResponse> OffsetFetchResponse::decode(WireReader& reader, std::int16_t version) {
  if (version < kMinVersion || version > kMaxVersion) return ErrorCode::kUnsupportedVersion;
  OffsetFetchResponse response;
  if (version >= 3) response.throttle_time_ms = reader.read_int32();
  response.topics = reader.read_array<Topic>(
      [version](WireReader& r) {
        Topic topic;
        topic.name = r.read_string();
        topic.partitions = r.read_array<Partition>(
            [version](WireReader& p) {
              Partition partition;
              partition.partition_index = p.read_int32();
              partition.committed_offset = p.read_int64();
              if (version >= 5) partition.committed_leader_epoch = p.read_int32();
              partition.metadata = to_owned(p.read_nullable_string());
              partition.error_code = static_cast<ErrorCode>(p.read_int16());
              return partition;
            },
            16);
        return topic;
      },
      6);
  if (version >= 2) response.error_code = static_cast<ErrorCode>(reader.read_int16());
  if (!reader.ok()) return ErrorCode::kInvalidRequest;
  return response;
}

void OffsetFetchResponse::encode(WireWriter& writer, std::int16_t version) const {
  if (version >= 3) writer.write_int32(throttle_time_ms);
  writer.write_array(topics, [version](WireWriter& w, const Topic& topic) {
    w.write_string(topic.name);
    w.write_array(topic.partitions, [version](WireWriter& p, const Partition& partition) {
      p.write_int32(partition.partition_index);
      p.write_int64(partition.committed_offset);
      if (version >= 5) p.write_int32(partition.committed_leader_epoch);
      p.write_nullable_string(to_view(partition.metadata));
      p.write_int16(static_cast<std::int16_t>(partition.error_code));
    });
  });
  if (version >= 2) writer.write_int16(static_cast<std::int16_t>(error_code));
}

}  // namespace kgroups::protocol
