// SPDX-License-Identifier: Apache-2.0
//
// OffsetFetch (key 9): v0-5.
// - v0-1: group_id, topics[name, partition_indexes]; response topics[name,
//   partitions[partition_index, committed_offset, metadata, error_code]] (v0 reads offsets
//   kept in ZooKeeper, v1 in Kafka; the layout is the same).
// - v2: topics may be null (all committed partitions); the response gains a top-level
//   error_code (last). v3: throttle_time_ms (first). v4: same layout.
// - v5: committed_leader_epoch per partition.
// committed_offset is -1 where nothing is committed. The request views the frame (valid
// while it lives); the response owns its data. Thread-safe: plain values.
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

struct OffsetFetchRequest {
  static constexpr std::int16_t kMinVersion = 0;
  static constexpr std::int16_t kMaxVersion = 5;

  struct Topic {
    std::string_view name;
    std::vector<std::int32_t> partition_indexes;
    bool operator==(const Topic&) const = default;
  };

  std::string_view group_id;
  // std::nullopt (v2+) asks for every partition the group has committed.
  std::optional<std::vector<Topic>> topics = std::vector<Topic>{};

  static Result<OffsetFetchRequest> decode(WireReader& reader, std::int16_t version);
  void encode(WireWriter& writer, std::int16_t version) const;
  bool operator==(const OffsetFetchRequest&) const = default;
};

struct OffsetFetchResponse {
  static constexpr std::int16_t kMinVersion = 0;
  static constexpr std::int16_t kMaxVersion = 5;

  struct Partition {
    std::int32_t partition_index = 0;
    std::int64_t committed_offset = -1;        // -1: nothing committed
    std::int32_t committed_leader_epoch = -1;  // v5+
    std::optional<std::string> metadata;
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
  ErrorCode error_code = ErrorCode::kNone;  // v2+; group-level error

  static Result<OffsetFetchResponse> decode(WireReader& reader, std::int16_t version);
  void encode(WireWriter& writer, std::int16_t version) const;
  bool operator==(const OffsetFetchResponse&) const = default;
};

}  // namespace kgroups::protocol
