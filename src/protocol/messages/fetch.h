// SPDX-License-Identifier: Apache-2.0
//
// Fetch (key 1): v0-11.
// - v0: replica_id, max_wait_ms, min_bytes, topics[topic, partitions[partition,
//   fetch_offset, partition_max_bytes]]. v3: max_bytes. v4: isolation_level; the response
//   gains last_stable_offset and aborted_transactions (records are magic-2 from here on).
// - v5: log_start_offset (both directions). v7: fetch sessions (session_id, session_epoch,
//   forgotten_topics_data; response error_code and session_id). v9: current_leader_epoch.
//   v11: rack_id; response preferred_read_replica.
// - Response: v1 adds throttle_time_ms.
// The request views the frame (valid while it lives). The response owns its names but its
// records are views: FetchResponse::Partition::records lists stored batches (or any byte
// ranges) that encode() writes back to back as one records field, so the broker serves stored
// batches without first copying them into the struct. Those bytes must stay alive and
// unchanged until encode() returns. Decoding gives one view into the response frame.
// Thread-safe: plain values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/byte_view.h"
#include "protocol/error_code.h"
#include "protocol/result.h"
#include "protocol/wire_reader.h"
#include "protocol/wire_writer.h"

namespace kgroups::protocol {

struct FetchRequest {
  static constexpr std::int16_t kMinVersion = 0;
  static constexpr std::int16_t kMaxVersion = 11;

  struct Partition {
    std::int32_t partition = 0;
    std::int32_t current_leader_epoch = -1;  // v9+
    std::int64_t fetch_offset = 0;           // first offset wanted
    std::int64_t log_start_offset = -1;      // v5+; followers only
    std::int32_t partition_max_bytes = 0;    // at most this many record bytes for the partition
    bool operator==(const Partition&) const = default;
  };
  struct Topic {
    std::string_view topic;
    std::vector<Partition> partitions;
    bool operator==(const Topic&) const = default;
  };
  struct ForgottenTopic {
    std::string_view topic;
    std::vector<std::int32_t> partitions;
    bool operator==(const ForgottenTopic&) const = default;
  };

  std::int32_t replica_id = -1;         // -1 for consumers
  std::int32_t max_wait_ms = 0;         // how long to wait for min_bytes
  std::int32_t min_bytes = 0;           // answer once this many record bytes are available
  std::int32_t max_bytes = 0x7FFFFFFF;  // v3+; whole-response limit
  std::int8_t isolation_level = 0;      // v4+; 0 read uncommitted, 1 read committed
  std::int32_t session_id = 0;          // v7+
  std::int32_t session_epoch = -1;      // v7+
  std::vector<Topic> topics;
  std::vector<ForgottenTopic> forgotten_topics_data;  // v7+
  std::string_view rack_id;                           // v11+

  static Result<FetchRequest> decode(WireReader& reader, std::int16_t version);
  void encode(WireWriter& writer, std::int16_t version) const;
  bool operator==(const FetchRequest&) const = default;
};

struct FetchResponse {
  static constexpr std::int16_t kMinVersion = 0;
  static constexpr std::int16_t kMaxVersion = 11;

  struct AbortedTransaction {
    std::int64_t producer_id = 0;
    std::int64_t first_offset = 0;
    bool operator==(const AbortedTransaction&) const = default;
  };
  struct Partition {
    std::int32_t partition_index = 0;
    ErrorCode error_code = ErrorCode::kNone;
    std::int64_t high_watermark = 0;       // end offset of the partition
    std::int64_t last_stable_offset = -1;  // v4+
    std::int64_t log_start_offset = -1;    // v5+
    std::optional<std::vector<AbortedTransaction>> aborted_transactions;  // v4+; null = none
    std::int32_t preferred_read_replica = -1;                             // v11+
    // Written back to back as one (non-null) records field; see the file comment.
    std::vector<ByteView> records;
    bool operator==(const Partition&) const = default;
  };
  struct Topic {
    std::string topic;
    std::vector<Partition> partitions;
    bool operator==(const Topic&) const = default;
  };

  std::int32_t throttle_time_ms = 0;        // v1+
  ErrorCode error_code = ErrorCode::kNone;  // v7+; top-level (fetch session) error
  std::int32_t session_id = 0;              // v7+
  std::vector<Topic> responses;

  static Result<FetchResponse> decode(WireReader& reader, std::int16_t version);
  void encode(WireWriter& writer, std::int16_t version) const;
  bool operator==(const FetchResponse&) const = default;
};

}  // namespace kgroups::protocol
