// SPDX-License-Identifier: Apache-2.0

#include "protocol/messages/metadata.h"

#include "protocol/messages/owned_fields.h"

namespace kgroups::protocol {
namespace {

std::string_view read_topic_name(WireReader& reader) { return reader.read_string(); }

void write_topic_name(WireWriter& writer, std::string_view name) { writer.write_string(name); }

}  // namespace

Result<MetadataRequest> MetadataRequest::decode(WireReader& reader, std::int16_t version) {
  if (version < kMinVersion || version > kMaxVersion) return ErrorCode::kUnsupportedVersion;
  MetadataRequest request;
  request.topics = reader.read_nullable_array<std::string_view>(read_topic_name, 2);
  if (version == 0 && request.topics && request.topics->empty()) request.topics.reset();
  if (version >= 4) request.allow_auto_topic_creation = reader.read_bool();
  if (!reader.ok()) return ErrorCode::kInvalidRequest;
  return request;
}

void MetadataRequest::encode(WireWriter& writer, std::int16_t version) const {
  if (version == 0 && !topics) {
    writer.write_array_length(0);
  } else {
    writer.write_nullable_array(topics, write_topic_name);
  }
  if (version >= 4) writer.write_bool(allow_auto_topic_creation);
}

Result<MetadataResponse> MetadataResponse::decode(WireReader& reader, std::int16_t version) {
  if (version < kMinVersion || version > kMaxVersion) return ErrorCode::kUnsupportedVersion;
  MetadataResponse response;
  if (version >= 3) response.throttle_time_ms = reader.read_int32();
  response.brokers = reader.read_array<Broker>(
      [version](WireReader& r) {
        Broker broker;
        broker.node_id = r.read_int32();
        broker.host = r.read_string();
        broker.port = r.read_int32();
        if (version >= 1) broker.rack = to_owned(r.read_nullable_string());
        return broker;
      },
      10);
  if (version >= 2) response.cluster_id = to_owned(reader.read_nullable_string());
  if (version >= 1) response.controller_id = reader.read_int32();
  response.topics = reader.read_array<Topic>(
      [version](WireReader& r) {
        Topic topic;
        topic.error_code = static_cast<ErrorCode>(r.read_int16());
        topic.name = r.read_string();
        if (version >= 1) topic.is_internal = r.read_bool();
        topic.partitions = r.read_array<Partition>(
            [version](WireReader& p) {
              Partition partition;
              partition.error_code = static_cast<ErrorCode>(p.read_int16());
              partition.partition_index = p.read_int32();
              partition.leader_id = p.read_int32();
              partition.replica_nodes = p.read_array<std::int32_t>(read_int32_element, 4);
              partition.isr_nodes = p.read_array<std::int32_t>(read_int32_element, 4);
              if (version >= 5) {
                partition.offline_replicas = p.read_array<std::int32_t>(read_int32_element, 4);
              }
              return partition;
            },
            18);
        return topic;
      },
      8);
  if (!reader.ok()) return ErrorCode::kInvalidRequest;
  return response;
}

void MetadataResponse::encode(WireWriter& writer, std::int16_t version) const {
  if (version >= 3) writer.write_int32(throttle_time_ms);
  writer.write_array(brokers, [version](WireWriter& w, const Broker& broker) {
    w.write_int32(broker.node_id);
    w.write_string(broker.host);
    w.write_int32(broker.port);
    if (version >= 1) w.write_nullable_string(to_view(broker.rack));
  });
  if (version >= 2) writer.write_nullable_string(to_view(cluster_id));
  if (version >= 1) writer.write_int32(controller_id);
  writer.write_array(topics, [version](WireWriter& w, const Topic& topic) {
    w.write_int16(static_cast<std::int16_t>(topic.error_code));
    w.write_string(topic.name);
    if (version >= 1) w.write_bool(topic.is_internal);
    w.write_array(topic.partitions, [version](WireWriter& p, const Partition& partition) {
      p.write_int16(static_cast<std::int16_t>(partition.error_code));
      p.write_int32(partition.partition_index);
      p.write_int32(partition.leader_id);
      p.write_array(partition.replica_nodes, write_int32_element);
      p.write_array(partition.isr_nodes, write_int32_element);
      if (version >= 5) p.write_array(partition.offline_replicas, write_int32_element);
    });
  });
}

}  // namespace kgroups::protocol
