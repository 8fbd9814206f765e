// SPDX-License-Identifier: Apache-2.0
//
// Produce (key 0): v0-8 (requests of v3-8 share one layout).
// - v0-2: acks, timeout_ms, topic_data[name, partition_data[index, records]]; records are
//   v0/v1 message sets, which the broker refuses (see record_batch.h).
// - v3: transactional_id first; records are magic-2 batches.
// - Response: v1 adds throttle_time_ms (last), v2 log_append_time_ms, v5 log_start_offset,
//   v8 record_errors and error_message.
// The request views the frame (records included: valid while the frame lives); the
// response owns its data. Thread-safe: plain values.
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

struct ProduceRequest {
  static constexpr std::int16_t kMinVersion = 0;
  static constexpr std::int16_t kMaxVersion = 8;

  struct PartitionData {
    std::int32_t index = 0;
    std::optional<ByteView> records;  // one or more record batches back to back
    bool operator==(const PartitionData&) const = default;
  };
  struct TopicData {
    std::string_view name;
    std::vector<PartitionData> partition_data;
    bool operator==(const TopicData&) const = default;
  };

  std::optional<std::string_view> transactional_id;  // v3+
  std::int16_t acks = -1;       // 0: no response, 1: leader, -1: all in-sync replicas
  std::int32_t timeout_ms = 0;  // how long to wait for acks
  std::vector<TopicData> topic_data;

  static Result<ProduceRequest> decode(WireReader& reader, std::int16_t version);
  void encode(WireWriter& writer, std::int16_t version) const;
  bool operator==(const ProduceRequest&) const = default;
};

struct ProduceResponse {
  static constexpr std::int16_t kMinVersion = 0;
  static constexpr std::int16_t kMaxVersion = 8;

  struct BatchIndexAndErrorMessage {
    std::int32_t batch_index = 0;
    std::optional<std::string> batch_index_error_message;
    bool operator==(const BatchIndexAndErrorMessage&) const = default;
  };
  struct PartitionResponse {
    std::int32_t index = 0;
    ErrorCode error_code = ErrorCode::kNone;
    std::int64_t base_offset = -1;         // offset given to the first record written
    std::int64_t log_append_time_ms = -1;  // v2+; -1 when the topic uses create time
    std::int64_t log_start_offset = -1;    // v5+
    std::vector<BatchIndexAndErrorMessage> record_errors;  // v8+
    std::optional<std::string> error_message;              // v8+
    bool operator==(const PartitionResponse&) const = default;
  };
  struct TopicResponse {
    std::string name;
    std::vector<PartitionResponse> partition_responses;
    bool operator==(const TopicResponse&) const = default;
  };

  std::vector<TopicResponse> responses;
  std::int32_t throttle_time_ms = 0;  // v1+

  static Result<ProduceResponse> decode(WireReader& reader, std::int16_t version);
  void encode(WireWriter& writer, std::int16_t version) const;
  bool operator==(const ProduceResponse&) const = default;
};

}  // namespace kgroups::protocol
