// SPDX-License-Identifier: Apache-2.0
#include "broker/faults/partition_faults.h"

#include <algorithm>

#include "broker/faults/fault_injector.h"

namespace kgroups::broker {

using protocol::ErrorCode;

ErrorCode PartitionFaults::find(std::string_view topic, std::int32_t partition) {
  const Fault* fault = injector_->find_partition_fault(api_, group_, topic, partition);
  if (fault == nullptr) return ErrorCode::kNone;
  if (std::find(matched_.begin(), matched_.end(), fault->id) == matched_.end()) {
    matched_.push_back(fault->id);
  }
  return fault->error;
}

void PartitionFaults::settle() {
  if (injector_ == nullptr) return;
  for (const std::uint64_t id : matched_) injector_->use_id(id, api_);
  matched_.clear();
}

}  // namespace kgroups::broker
