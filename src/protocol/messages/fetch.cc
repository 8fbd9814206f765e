// SPDX-License-Identifier: Apache-2.0

#include "protocol/messages/fetch.h"

#include "protocol/messages/owned_fields.h"

namespace kgroups::protocol {

Result<FetchRequest> FetchRequest::decode(WireReader& reader, std::int16_t version) {
  if (version < kMinVersion || version > kMaxVersion) return ErrorCode::kUnsupportedVersion;
  FetchRequest request;
  request.replica_id = reader.read_int32();
  request.max_wait_ms = reader.read_int32();
  request.min_bytes = reader.read_int32();
  if (version >= 3) request.max_bytes = reader.read_int32();
  if (version >= 4) request.isolation_level = reader.read_int8();
  if (version >= 7) {
    request.session_id = reader.read_int32();
    request.session_epoch = reader.read_int32();
  }
  request.topics = reader.read_array<Topic>(
      [version](WireReader& r) {
        Topic topic;
        topic.topic = r.read_string();
        topic.partitions = r.read_array<Partition>(
            [version](WireReader& p) {
              Partition partition;
              partition.partition = p.read_int32();
              if (version >= 9) partition.current_leader_epoch = p.read_int32();
              partition.fetch_offset = p.read_int64();
              if (version >= 5) partition.log_start_offset = p.read_int64();
              partition.partition_max_bytes = p.read_int32();
              return partition;
            },
            16);
        return topic;
      },
      6);
  if (version >= 7) {
    request.forgotten_topics_data = reader.read_array<ForgottenTopic>(
        [](WireReader& r) {
          ForgottenTopic topic;
          topic.topic = r.read_string();
          topic.partitions = r.read_array<std::int32_t>(read_int32_element, 4);
          return topic;
        },
        6);
  }
  if (version >= 11) request.rack_id = reader.read_string();
  if (!reader.ok()) return ErrorCode::kInvalidRequest;
  return request;
}

void FetchRequest::encode(WireWriter& writer, std::int16_t version) const {
  writer.write_int32(replica_id);
  writer.write_int32(max_wait_ms);
  writer.write_int32(min_bytes);
  if (version >= 3) writer.write_int32(max_bytes);
  if (version >= 4) writer.write_int8(isolation_level);
  if (version >= 7) {
    writer.write_int32(session_id);
    writer.write_int32(session_epoch);
  }
  writer.write_array(topics, [version](WireWriter& w, const Topic& topic) {
    w.write_string(topic.topic);
    w.write_array(topic.partitions, [version](WireWriter& p, const Partition& partition) {
      p.write_int32(partition.partition);
      if (version >= 9) p.write_int32(partition.current_leader_epoch);
      p.write_int64(partition.fetch_offset);
      if (version >= 5) p.write_int64(partition.log_start_offset);
      p.write_int32(partition.partition_max_bytes);
    });
  });
  if (version >= 7) {
    writer.write_array(forgotten_topics_data, [](WireWriter& w, const ForgottenTopic& topic) {
      w.write_string(topic.topic);
      w.write_array(topic.partitions, write_int32_element);
    });
  }
  if (version >= 11) writer.write_string(rack_id);
}

Result<FetchResponse> FetchResponse::decode(WireReader& reader, std::int16_t version) {
  if (version < kMinVersion || version > kMaxVersion) return ErrorCode::kUnsupportedVersion;
  FetchResponse response;
  if (version >= 1) response.throttle_time_ms = reader.read_int32();
  if (version >= 7) {
    response.error_code = static_cast<ErrorCode>(reader.read_int16());
    response.session_id = reader.read_int32();
  }
  response.responses = reader.read_array<Topic>(
      [version](WireReader& r) {
        Topic topic;
        topic.topic = r.read_string();
        topic.partitions = r.read_array<Partition>(
            [version](WireReader& p) {
              Partition partition;
              partition.partition_index = p.read_int32();
              partition.error_code = static_cast<ErrorCode>(p.read_int16());
              partition.high_watermark = p.read_int64();
              if (version >= 4) partition.last_stable_offset = p.read_int64();
              if (version >= 5) partition.log_start_offset = p.read_int64();
              if (version >= 4) {
                partition.aborted_transactions = p.read_nullable_array<AbortedTransaction>(
                    [](WireReader& a) {
                      AbortedTransaction aborted;
                      aborted.producer_id = a.read_int64();
                      aborted.first_offset = a.read_int64();
                      return aborted;
                    },
                    16);
              }
              if (version >= 11) partition.preferred_read_replica = p.read_int32();
              const std::optional<ByteView> records = p.read_nullable_bytes();
              if (records && !records->empty()) partition.records.push_back(*records);
              return partition;
            },
            18);
        return topic;
      },
      6);
  if (!reader.ok()) return ErrorCode::kInvalidRequest;
  return response;
}

void FetchResponse::encode(WireWriter& writer, std::int16_t version) const {
  if (version >= 1) writer.write_int32(throttle_time_ms);
  if (version >= 7) {
    writer.write_int16(static_cast<std::int16_t>(error_code));
    writer.write_int32(session_id);
  }
  writer.write_array(responses, [version](WireWriter& w, const Topic& topic) {
    w.write_string(topic.topic);
    w.write_array(topic.partitions, [version](WireWriter& p, const Partition& partition) {
      p.write_int32(partition.partition_index);
      p.write_int16(static_cast<std::int16_t>(partition.error_code));
      p.write_int64(partition.high_watermark);
      if (version >= 4) p.write_int64(partition.last_stable_offset);
      if (version >= 5) p.write_int64(partition.log_start_offset);
      if (version >= 4) {
        p.write_nullable_array(partition.aborted_transactions,
                               [](WireWriter& a, const AbortedTransaction& aborted) {
                                 a.write_int64(aborted.producer_id);
                                 a.write_int64(aborted.first_offset);
                               });
      }
      if (version >= 11) p.write_int32(partition.preferred_read_replica);
      std::size_t total = 0;
      for (ByteView chunk : partition.records) total += chunk.size();
      p.write_int32(static_cast<std::int32_t>(total));
      for (ByteView chunk : partition.records) p.write_raw(chunk);
    });
  });
}

}  // namespace kgroups::protocol
