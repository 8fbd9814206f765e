// SPDX-License-Identifier: Apache-2.0
//
// PartitionFaults: the error faults that apply to one request of an API with per-partition
// errors (Produce, Fetch, ListOffsets, OffsetCommit). The handler's service asks error_for()
// for each partition it serves: a partition a fault matches answers that fault's error and is
// otherwise left alone (not stored, not read, not committed). Once the request is answered,
// settle() uses one of the count of every fault that matched any partition.
// Get one from FaultInjector::partition_faults(); a default-constructed one is inactive and
// answers kNone at the cost of one branch.
// Not thread-safe: lives on the broker's network thread for one request. The injector must
// outlive it; faults disarmed meanwhile simply stop matching.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/api_key.h"
#include "protocol/error_code.h"

namespace kgroups::broker {

class FaultInjector;

class PartitionFaults {
 public:
  PartitionFaults() = default;

  // The error partition `partition` of `topic` answers, or kNone.
  protocol::ErrorCode error_for(std::string_view topic, std::int32_t partition) {
    if (injector_ == nullptr) return protocol::ErrorCode::kNone;
    return find(topic, partition);
  }
  // Whether any armed fault may match (callers may skip their per-partition loop when not).
  [[nodiscard]] bool active() const { return injector_ != nullptr; }
  // Uses one request of each fault that matched; call once, after the request is answered.
  void settle();

 private:
  friend class FaultInjector;
  PartitionFaults(FaultInjector& injector, protocol::ApiKey api, std::string_view group)
      : injector_(&injector), api_(api), group_(group) {}
  protocol::ErrorCode find(std::string_view topic, std::int32_t partition);

  FaultInjector* injector_ = nullptr;  // nullptr: inactive
  protocol::ApiKey api_ = protocol::ApiKey::kProduce;
  std::string group_;
  std::vector<std::uint64_t> matched_;  // ids of the faults that matched a partition
};

}  // namespace kgroups::broker
