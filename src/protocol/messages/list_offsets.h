// SPDX-License-Identifier: Apache-2.0
//
// ListOffsets (key 2): v0-5.
// - v0: partitions carry max_num_offsets; the response gives old_style_offsets[].
// - v1: one timestamp -> one (timestamp, offset) per partition. Timestamp -1 asks for the
//   latest offset (the end offset), -2 for the earliest.
// - v2: isolation_level; the response gains throttle_time_ms.
// - v4: current_leader_epoch in the request, leader_epoch in the response. v5: same layout.
// The request views the frame (valid while it lives); the response owns its data.
// Thread-safe: plain values.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/error_code.h"
#include "protocol/result.h"
#include "protocol/wire_reader.h"
#include "protocol/wire_writer.h"

namespace kgroups::protocol {

// Special ListOffsets timestamps.
inline constexpr std::int64_t kListOffsetsLatestTimestamp = -1;
inline constexpr std::int64_t kListOffsetsEarliestTimestamp = -2;

struct ListOffsetsRequest {
  static constexpr std::int16_t kMinVersion = 0;
  static constexpr std::int16_t kMaxVersion = 5;

  struct Partition {
    std::int32_t partition_index = 0;
    std::int32_t current_leader_epoch = -1;                // v4+
    std::int64_t timestamp = kListOffsetsLatestTimestamp;  // ms, or -1 latest / -2 earliest
    std::int32_t max_num_offsets = 1;                      // v0 only
    bool operator==(const Partition&) const = default;
  };
  struct Topic {
    std::string_view name;
    std::vector<Partition> partitions;
    bool operator==(const Topic&) const = default;
  };

  std::int32_t replica_id = -1;     // -1 for consumers
  std::int8_t isolation_level = 0;  // v2+
  std::vector<Topic> topics;

  static Result<ListOffsetsRequest> decode(WireReader& reader, std::int16_t version);
  void encode(WireWriter& writer, std::int16_t version) const;
  bool operator==(const ListOffsetsRequest&) const = default;
};

struct ListOffsetsResponse {
  static constexpr std::int16_t kMinVersion = 0;
  static constexpr std::int16_t kMaxVersion = 5;

  struct Partition {
    std::int32_t partition_index = 0;
    ErrorCode error_code = ErrorCode::kNone;
    std::vector<std::int64_t> old_style_offsets;  // v0 only
    std::int64_t timestamp = -1;                  // v1+
    std::int64_t offset = -1;                     // v1+
    std::int32_t leader_epoch = -1;               // v4+
    bool operator==(const Partition&) const = default;
  };
  struct Topic {
    std::string name;
    std::vector<Partition> partitions;
    bool operator==(const Topic&) const = default;
  };

  std::int32_t throttle_time_ms = 0;  // v2+
  std::vector<Topic> topics;

  static Result<ListOffsetsResponse> decode(WireReader& reader, std::int16_t version);
  void encode(WireWriter& writer, std::int16_t version) const;
  bool operator==(const ListOffsetsResponse&) const = default;
};

}  // namespace kgroups::protocol
