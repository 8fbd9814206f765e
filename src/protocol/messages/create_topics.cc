// SPDX-License-Identifier: Apache-2.0

#include "protocol/messages/create_topics.h"

#include "protocol/messages/owned_fields.h"

namespace kgroups::protocol {

Result<CreateTopicsRequest> CreateTopicsRequest::decode(WireReader& reader, std::int16_t version) {
  if (version < kMinVersion || version > kMaxVersion) return ErrorCode::kUnsupportedVersion;
  CreateTopicsRequest request;
  request.topics = reader.read_array<Topic>(
      [](WireReader& r) {
        Topic topic;
        topic.name = r.read_string();
        topic.num_partitions = r.read_int32();
        topic.replication_factor = r.read_int16();
        topic.assignments = r.read_array<Assignment>(
            [](WireReader& a) {
              Assignment assignment;
              assignment.partition_index = a.read_int32();
              assignment.broker_ids = a.read_array<std::int32_t>(read_int32_element, 4);
              return assignment;
            },
            8);
        topic.configs = r.read_array<Config>(
            [](WireReader& c) {
              Config config;
              config.name = c.read_string();
              config.value = c.read_nullable_string();
              return config;
            },
            4);
        return topic;
      },
      16);
  request.timeout_ms = reader.read_int32();
  if (version >= 1) request.validate_only = reader.read_bool();
  if (!reader.ok()) return ErrorCode::kInvalidRequest;
  return request;
}

void CreateTopicsRequest::encode(WireWriter& writer, std::int16_t version) const {
  writer.write_array(topics, [](WireWriter& w, const Topic& topic) {
    w.write_string(topic.name);
    w.write_int32(topic.num_partitions);
    w.write_int16(topic.replication_factor);
    w.write_array(topic.assignments, [](WireWriter& a, const Assignment& assignment) {
      a.write_int32(assignment.partition_index);
      a.write_array(assignment.broker_ids, write_int32_element);
    });
    w.write_array(topic.configs, [](WireWriter& c, const Config& config) {
      c.write_string(config.name);
      c.write_nullable_string(config.value);
    });
  });
  writer.write_int32(timeout_ms);
  if (version >= 1) writer.write_bool(validate_only);
}

Result<CreateTopicsResponse> CreateTopicsResponse::decode(WireReader& reader,
                                                          std::int16_t version) {
  if (version < kMinVersion || version > kMaxVersion) return ErrorCode::kUnsupportedVersion;
  CreateTopicsResponse response;
  if (version >= 2) response.throttle_time_ms = reader.read_int32();
  response.topics = reader.read_array<Topic>(
      [version](WireReader& r) {
        Topic topic;
        topic.name = r.read_string();
        topic.error_code = static_cast<ErrorCode>(r.read_int16());
        if (version >= 1) topic.error_message = to_owned(r.read_nullable_string());
        return topic;
      },
      4);
  if (!reader.ok()) return ErrorCode::kInvalidRequest;
  return response;
}

void CreateTopicsResponse::encode(WireWriter& writer, std::int16_t version) const {
  if (version >= 2) writer.write_int32(throttle_time_ms);
  writer.write_array(topics, [version](WireWriter& w, const Topic& topic) {
    w.write_string(topic.name);
    w.write_int16(static_cast<std::int16_t>(topic.error_code));
    if (version >= 1) w.write_nullable_string(to_view(topic.error_message));
  });
}

}  // namespace kgroups::protocol
