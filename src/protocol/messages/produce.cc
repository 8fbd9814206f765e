// SPDX-License-Identifier: Apache-2.0

#include "protocol/messages/produce.h"

#include "protocol/messages/owned_fields.h"

namespace kgroups::protocol {

Result<ProduceRequest> ProduceRequest::decode(WireReader& reader, std::int16_t version) {
  if (version < kMinVersion || version > kMaxVersion) return ErrorCode::kUnsupportedVersion;
  ProduceRequest request;
  if (version >= 3) request.transactional_id = reader.read_nullable_string();
  request.acks = reader.read_int16();
  request.timeout_ms = reader.read_int32();
  request.topic_data = reader.read_array<TopicData>(
      [](WireReader& r) {
        TopicData topic;
        topic.name = r.read_string();
        topic.partition_data = r.read_array<PartitionData>(
            [](WireReader& p) {
              PartitionData partition;
              partition.index = p.read_int32();
              partition.records = p.read_nullable_bytes();
              return partition;
            },
            8);
        return topic;
      },
      6);
  if (!reader.ok()) return ErrorCode::kInvalidRequest;
  return request;
}

void ProduceRequest::encode(WireWriter& writer, std::int16_t version) const {
  if (version >= 3) writer.write_nullable_string(transactional_id);
  writer.write_int16(acks);
  writer.write_int32(timeout_ms);
  writer.write_array(topic_data, [](WireWriter& w, const TopicData& topic) {
    w.write_string(topic.name);
    w.write_array(topic.partition_data, [](WireWriter& p, const PartitionData& partition) {
      p.write_int32(partition.index);
      p.write_nullable_bytes(partition.records);
    });
  });
}

Result<ProduceResponse> ProduceResponse::decode(WireReader& reader, std::int16_t version) {
  if (version < kMinVersion || version > kMaxVersion) return ErrorCode::kUnsupportedVersion;
  ProduceResponse response;
  response.responses = reader.read_array<TopicResponse>(
      [version](WireReader& r) {
        TopicResponse topic;
        topic.name = r.read_string();
        topic.partition_responses = r.read_array<PartitionResponse>(
            [version](WireReader& p) {
              PartitionResponse partition;
              partition.index = p.read_int32();
              partition.error_code = static_cast<ErrorCode>(p.read_int16());
              partition.base_offset = p.read_int64();
              if (version >= 2) partition.log_append_time_ms = p.read_int64();
              if (version >= 5) partition.log_start_offset = p.read_int64();
              if (version >= 8) {
                partition.record_errors = p.read_array<BatchIndexAndErrorMessage>(
                    [](WireReader& e) {
                      BatchIndexAndErrorMessage error;
                      error.batch_index = e.read_int32();
                      error.batch_index_error_message = to_owned(e.read_nullable_string());
                      return error;
                    },
                    6);
                partition.error_message = to_owned(p.read_nullable_string());
              }
              return partition;
            },
            14);
        return topic;
      },
      6);
  if (version >= 1) response.throttle_time_ms = reader.read_int32();
  if (!reader.ok()) return ErrorCode::kInvalidRequest;
  return response;
}

void ProduceResponse::encode(WireWriter& writer, std::int16_t version) const {
  writer.write_array(responses, [version](WireWriter& w, const TopicResponse& topic) {
    w.write_string(topic.name);
    w.write_array(
        topic.partition_responses, [version](WireWriter& p, const PartitionResponse& partition) {
          p.write_int32(partition.index);
          p.write_int16(static_cast<std::int16_t>(partition.error_code));
          p.write_int64(partition.base_offset);
          if (version >= 2) p.write_int64(partition.log_append_time_ms);
          if (version >= 5) p.write_int64(partition.log_start_offset);
          if (version >= 8) {
            p.write_array(partition.record_errors,
                          [](WireWriter& e, const BatchIndexAndErrorMessage& error) {
                            e.write_int32(error.batch_index);
                            e.write_nullable_string(to_view(error.batch_index_error_message));
                          });
            p.write_nullable_string(to_view(partition.error_message));
          }
        });
  });
  if (version >= 1) writer.write_int32(throttle_time_ms);
}

}  // namespace kgroups::protocol
