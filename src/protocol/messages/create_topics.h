// SPDX-License-Identifier: Apache-2.0
//
// CreateTopics (key 19): v0-4 (requests of v1-4 share one layout).
// - v0: topics[name, num_partitions, replication_factor, assignments, configs], timeout_ms.
// - v1: validate_only; the response gains error_message.
// - v2: the response gains throttle_time_ms. v3-4: same layout as v2.
// num_partitions / replication_factor are -1 when the client leaves them to the broker
// (v4+ semantics; the layout allows it in every version).
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

struct CreateTopicsRequest {
  static constexpr std::int16_t kMinVersion = 0;
  static constexpr std::int16_t kMaxVersion = 4;

  struct Assignment {
    std::int32_t partition_index = 0;
    std::vector<std::int32_t> broker_ids;
    bool operator==(const Assignment&) const = default;
  };
  struct Config {
    std::string_view name;
    std::optional<std::string_view> value;
    bool operator==(const Config&) const = default;
  };
  struct Topic {
    std::string_view name;
    std::int32_t num_partitions = -1;      // -1: broker default
    std::int16_t replication_factor = -1;  // -1: broker default
    std::vector<Assignment> assignments;   // explicit replica placement, usually empty
    std::vector<Config> configs;
    bool operator==(const Topic&) const = default;
  };

  std::vector<Topic> topics;
  std::int32_t timeout_ms = 0;
  bool validate_only = false;  // v1+

  static Result<CreateTopicsRequest> decode(WireReader& reader, std::int16_t version);
  void encode(WireWriter& writer, std::int16_t version) const;
  bool operator==(const CreateTopicsRequest&) const = default;
};

struct CreateTopicsResponse {
  static constexpr std::int16_t kMinVersion = 0;
  static constexpr std::int16_t kMaxVersion = 4;

  struct Topic {
    std::string name;
    ErrorCode error_code = ErrorCode::kNone;
    std::optional<std::string> error_message;  // v1+
    bool operator==(const Topic&) const = default;
  };

  std::int32_t throttle_time_ms = 0;  // v2+
  std::vector<Topic> topics;

  static Result<CreateTopicsResponse> decode(WireReader& reader, std::int16_t version);
  void encode(WireWriter& writer, std::int16_t version) const;
  bool operator==(const CreateTopicsResponse&) const = default;
};

}  // namespace kgroups::protocol
