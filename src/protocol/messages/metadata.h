// SPDX-License-Identifier: Apache-2.0
//
// Metadata (key 3): v0-5.
// - v0: topics is a plain array; an empty array asks for all topics.
// - v1: topics is nullable (null = all, empty = none); brokers gain rack, the response gains
//   controller_id, topics gain is_internal.
// - v2: cluster_id. v3: throttle_time_ms. v4: allow_auto_topic_creation.
// - v5: partitions gain offline_replicas.
// The request views the frame (valid while it lives); the response owns its data.
// Thread-safe: plain values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/error_code.h"
#include "protocol/result.h"
#include "protocol/wire_reader.h"
#include "protocol/wire_writer.h"

namespace kgroups::protocol {

struct MetadataRequest {
  static constexpr std::int16_t kMinVersion = 0;
  static constexpr std::int16_t kMaxVersion = 5;

  // std::nullopt asks for every topic (in v0 that is written as an empty array, and an empty
  // v0 array decodes as std::nullopt).
  std::optional<std::vector<std::string_view>> topics;
  bool allow_auto_topic_creation = true;  // v4+; earlier versions leave it to the broker

  static Result<MetadataRequest> decode(WireReader& reader, std::int16_t version);
  void encode(WireWriter& writer, std::int16_t version) const;
  bool operator==(const MetadataRequest&) const = default;
};

struct MetadataResponse {
  static constexpr std::int16_t kMinVersion = 0;
  static constexpr std::int16_t kMaxVersion = 5;

  struct Broker {
    std::int32_t node_id = 0;
    std::string host;
    std::int32_t port = 0;
    std::optional<std::string> rack;  // v1+
    bool operator==(const Broker&) const = default;
  };
  struct Partition {
    ErrorCode error_code = ErrorCode::kNone;
    std::int32_t partition_index = 0;
    std::int32_t leader_id = -1;
    std::vector<std::int32_t> replica_nodes;
    std::vector<std::int32_t> isr_nodes;
    std::vector<std::int32_t> offline_replicas;  // v5+
    bool operator==(const Partition&) const = default;
  };
  struct Topic {
    ErrorCode error_code = ErrorCode::kNone;
    std::string name;
    bool is_internal = false;  // v1+
    std::vector<Partition> partitions;
    bool operator==(const Topic&) const = default;
  };

  std::int32_t throttle_time_ms = 0;  // v3+
  std::vector<Broker> brokers;
  std::optional<std::string> cluster_id;  // v2+
  std::int32_t controller_id = -1;        // v1+
  std::vector<Topic> topics;

  static Result<MetadataResponse> decode(WireReader& reader, std::int16_t version);
  void encode(WireWriter& writer, std::int16_t version) const;
  bool operator==(const MetadataResponse&) const = default;
};

}  // namespace kgroups::protocol
