// SPDX-License-Identifier: Apache-2.0
//
// OffsetCommit (key 8): v0-7.
// - v0: group_id, topics[name, partitions[partition_index, committed_offset,
//   committed_metadata]]; response topics[name, partitions[partition_index, error_code]].
// - v1: generation_id and member_id; partitions gain commit_timestamp (v1 only).
// - v2-4: retention_time_ms (-1: broker default). v3: the response gains throttle_time_ms.
// - v5: retention_time_ms removed. v6: committed_leader_epoch. v7: group_instance_id.
// generation_id -1 with an empty member_id is a commit from outside the group (manual
// assignment). The request views the frame (valid while it lives); the response owns its
// data. Thread-safe: plain values.
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

struct OffsetCommitRequest {
  static constexpr std::int16_t kMinVersion = 0;
  static constexpr std::int16_t kMaxVersion = 7;

  struct Partition {
    std::int32_t partition_index = 0;
    std::int64_t committed_offset = 0;         // the next offset to consume
    std::int32_t committed_leader_epoch = -1;  // v6+
    std::int64_t commit_timestamp = -1;        // v1 only
    std::optional<std::string_view> committed_metadata;
    bool operator==(const Partition&) const = default;
  };
  struct Topic {
    std::string_view name;
    std::vector<Partition> partitions;
    bool operator==(const Topic&) const = default;
  };

  std::string_view group_id;
  std::int32_t generation_id = -1;                    // v1+
  std::string_view member_id;                         // v1+
  std::optional<std::string_view> group_instance_id;  // v7+
  std::int64_t retention_time_ms = -1;                // v2-4
  std::vector<Topic> topics;

  static Result<OffsetCommitRequest> decode(WireReader& reader, std::int16_t version);
  void encode(WireWriter& writer, std::int16_t version) const;
  bool operator==(const OffsetCommitRequest&) const = default;
};

struct OffsetCommitResponse {
  static constexpr std::int16_t kMinVersion = 0;
  static constexpr std::int16_t kMaxVersion = 7;

  struct Partition {
    std::int32_t partition_index = 0;
    ErrorCode error_code = ErrorCode::kNone;
    bool operator==(const Partition&) const = default;
  };
  struct Topic {
    std::string name;
    std::vector<Partition> partitions;
    bool operator==(const Topic&) const = default;
  };

  std::int32_t throttle_time_ms = 0;  // v3+
  std::vector<Topic> topics;

  static Result<OffsetCommitResponse> decode(WireReader& reader, std::int16_t version);
  void encode(WireWriter& writer, std::int16_t version) const;
  bool operator==(const OffsetCommitResponse&) const = default;
};

}  // namespace kgroups::protocol
