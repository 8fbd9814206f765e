// SPDX-License-Identifier: Apache-2.0
//
// Fault: one fault armed on the broker through the control endpoint (POST /v1/faults). It
// names the requests it applies to — one API (optionally narrowed to a topic, a partition or
// a group), or every group API when it takes the group coordinator away — what it does to
// them (answer an error code, delay the response, close the connection), and how many more
// requests it applies to. docs/HTTP-API.md ("Faults") is the contract.
// Not thread-safe: a value type.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "protocol/api_key.h"
#include "protocol/error_code.h"

namespace kgroups::broker {

enum class FaultAction {
  kError,    // answer `error` where the API's response has an error field
  kLatency,  // delay the response by `latency_ms`
  kClose,    // close the connection instead of answering
};

// A fault that takes the group coordinator away rather than naming one API.
enum class CoordinatorFault {
  kNone,         // an API fault: `api` says which requests
  kUnavailable,  // FindCoordinator (groups) and the group APIs: COORDINATOR_NOT_AVAILABLE
  kMoved,        // the group APIs: NOT_COORDINATOR (FindCoordinator still answers)
};

struct Fault {
  static constexpr std::int64_t kUntilDeleted = -1;  // count/remaining of a lasting fault

  std::uint64_t id = 0;                               // given by FaultInjector::arm, from 1
  protocol::ApiKey api = protocol::ApiKey::kProduce;  // with coordinator == kNone
  CoordinatorFault coordinator = CoordinatorFault::kNone;
  FaultAction action = FaultAction::kError;
  protocol::ErrorCode error = protocol::ErrorCode::kNone;  // with kError
  std::int32_t latency_ms = 0;                             // with kLatency
  // Filters: absent matches any.
  std::optional<std::string> topic;
  std::optional<std::int32_t> partition;
  std::optional<std::string> group;
  std::int64_t count = 1;      // requests it was armed for, or kUntilDeleted
  std::int64_t remaining = 1;  // requests it still applies to, or kUntilDeleted

  // Whether the fault applies to requests of `key` (coordinator faults: the group APIs, and
  // FindCoordinator when the coordinator is unavailable).
  [[nodiscard]] bool applies_to(protocol::ApiKey key) const;
  // The error a coordinator fault answers (COORDINATOR_NOT_AVAILABLE or NOT_COORDINATOR), or
  // `error` for an API fault.
  [[nodiscard]] protocol::ErrorCode answered_error() const;
};

// Whether `key` is one of the group APIs a coordinator fault applies to: JoinGroup,
// SyncGroup, Heartbeat, LeaveGroup, OffsetCommit, OffsetFetch, DescribeGroups,
// ConsumerGroupHeartbeat.
[[nodiscard]] bool is_coordinator_api(protocol::ApiKey key);

// The filters an error fault of one API takes.
struct ErrorFaultFilters {
  bool topic_partition = false;  // "topic" and "partition": the API has per-partition errors
  bool group = false;            // "group"
};
// The filters of error faults of `key`, or nullopt when kgroupsd cannot inject errors into
// that API (latency and close apply to every API).
[[nodiscard]] std::optional<ErrorFaultFilters> error_fault_filters(protocol::ApiKey key);
// The names of the APIs that take error faults, "Produce, Fetch, ...", for messages.
[[nodiscard]] std::string error_fault_api_names();

}  // namespace kgroups::broker
