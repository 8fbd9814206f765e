// SPDX-License-Identifier: Apache-2.0
//
// FaultInjector: the faults armed on the broker (Broker::faults()), and the questions the
// connection and the handlers ask it about each request: should this request be delayed or
// its connection closed (Connection::handle_frame), which error should it answer
// (take_error for APIs with a top-level or per-group error, partition_faults for APIs with
// per-partition errors). A request that a fault applies to uses up one of the fault's count;
// a fault whose count is used up is gone. At most kMaxFaults are armed at once.
//
// Cost when nothing is armed: every question starts with one check of an empty vector and
// allocates nothing.
// Not thread-safe: lives on the broker's network thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string_view>
#include <vector>

#include "broker/faults/fault.h"
#include "broker/faults/partition_faults.h"

namespace kgroups::broker {

class FaultInjector {
 public:
  // Faults armed at once; arming one more is refused (docs/HTTP-API.md).
  static constexpr std::size_t kMaxFaults = 1000;

  // What the connection does with a request before its handler runs.
  struct ConnectionFault {
    FaultAction action = FaultAction::kLatency;  // kLatency or kClose
    std::int32_t latency_ms = 0;
  };

  // Arms `fault` as given, with the next id and `remaining` = `count`. Returns the armed
  // fault, or nullptr when kMaxFaults are armed (then nothing changes). The caller has
  // validated it (fault_json.h).
  const Fault* arm(Fault fault);
  // Disarms fault `id`; false if no such fault is armed.
  bool disarm(std::uint64_t id);
  void disarm_all() { faults_.clear(); }

  // The armed faults, in the order they were armed.
  [[nodiscard]] const std::vector<Fault>& armed() const { return faults_; }
  [[nodiscard]] bool empty() const { return faults_.empty(); }

  // The first armed latency or close fault for `api`, which this request uses; nullopt when
  // none applies.
  std::optional<ConnectionFault> take_connection_fault(protocol::ApiKey api);

  // The error of the first armed fault that applies to a request of `api` for `group` (empty
  // when the API names none): a coordinator fault, or an error fault of `api` whose group
  // filter is absent or `group`. The request uses that fault. kNone when none applies.
  protocol::ErrorCode take_error(protocol::ApiKey api, std::string_view group);
  // The same, with coordinator faults only (for OffsetCommit, whose own error faults are
  // per partition).
  protocol::ErrorCode take_coordinator_error(protocol::ApiKey api, std::string_view group);
  // The error faults of `api` (an API with per-partition errors) for one request of `group`
  // (empty when the API names none); inactive, allocating nothing, when none is armed.
  PartitionFaults partition_faults(protocol::ApiKey api, std::string_view group = {});

  // How many requests of `api` a fault was applied to since the broker started (errors,
  // latency and closes together), for /metrics.
  [[nodiscard]] std::uint64_t injected(protocol::ApiKey api) const;
  [[nodiscard]] const std::map<protocol::ApiKey, std::uint64_t>& injected_by_api() const {
    return injected_;
  }

 private:
  friend class PartitionFaults;

  // The error fault of `api` that the first matches `topic`, `partition` and `group`, or
  // nullptr.
  const Fault* find_partition_fault(protocol::ApiKey api, std::string_view group,
                                    std::string_view topic, std::int32_t partition) const;
  // One request of `api` used the fault at `index`: counts it, and disarms the fault when its
  // count is used up.
  void use(std::size_t index, protocol::ApiKey api);
  // Uses fault `id` if it is still armed.
  void use_id(std::uint64_t id, protocol::ApiKey api);
  protocol::ErrorCode take_group_error(protocol::ApiKey api, std::string_view group,
                                       bool coordinator_only);

  std::vector<Fault> faults_;  // in arming order (ids increase)
  std::uint64_t next_id_ = 1;
  std::map<protocol::ApiKey, std::uint64_t> injected_;
};

}  // namespace kgroups::broker
