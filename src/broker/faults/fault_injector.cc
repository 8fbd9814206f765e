// SPDX-License-Identifier: Apache-2.0
#include "broker/faults/fault_injector.h"

#include <algorithm>
#include <utility>

namespace kgroups::broker {

using protocol::ApiKey;
using protocol::ErrorCode;

namespace {

bool group_matches(const Fault& fault, std::string_view group) {
  return !fault.group || *fault.group == group;
}

}  // namespace

const Fault* FaultInjector::arm(Fault fault) {
  if (faults_.size() >= kMaxFaults) return nullptr;
  fault.id = next_id_++;
  fault.remaining = fault.count;
  faults_.push_back(std::move(fault));
  return &faults_.back();
}

bool FaultInjector::disarm(std::uint64_t id) {
  const auto found =
      std::find_if(faults_.begin(), faults_.end(), [id](const Fault& f) { return f.id == id; });
  if (found == faults_.end()) return false;
  faults_.erase(found);
  return true;
}

std::optional<FaultInjector::ConnectionFault> FaultInjector::take_connection_fault(ApiKey api) {
  if (faults_.empty()) return std::nullopt;
  for (std::size_t i = 0; i < faults_.size(); ++i) {
    const Fault& fault = faults_[i];
    if (fault.action == FaultAction::kError || !fault.applies_to(api)) continue;
    const ConnectionFault answer{.action = fault.action, .latency_ms = fault.latency_ms};
    use(i, api);
    return answer;
  }
  return std::nullopt;
}

ErrorCode FaultInjector::take_error(ApiKey api, std::string_view group) {
  if (faults_.empty()) return ErrorCode::kNone;
  return take_group_error(api, group, /*coordinator_only=*/false);
}

ErrorCode FaultInjector::take_coordinator_error(ApiKey api, std::string_view group) {
  if (faults_.empty()) return ErrorCode::kNone;
  return take_group_error(api, group, /*coordinator_only=*/true);
}

ErrorCode FaultInjector::take_group_error(ApiKey api, std::string_view group,
                                          bool coordinator_only) {
  for (std::size_t i = 0; i < faults_.size(); ++i) {
    const Fault& fault = faults_[i];
    if (fault.action != FaultAction::kError || !fault.applies_to(api) ||
        !group_matches(fault, group)) {
      continue;
    }
    if (coordinator_only && fault.coordinator == CoordinatorFault::kNone) continue;
    const ErrorCode error = fault.answered_error();
    use(i, api);
    return error;
  }
  return ErrorCode::kNone;
}

PartitionFaults FaultInjector::partition_faults(ApiKey api, std::string_view group) {
  if (faults_.empty()) return {};
  const bool any = std::any_of(faults_.begin(), faults_.end(), [&](const Fault& fault) {
    return fault.coordinator == CoordinatorFault::kNone && fault.api == api &&
           fault.action == FaultAction::kError;
  });
  if (!any) return {};
  return PartitionFaults(*this, api, group);
}

const Fault* FaultInjector::find_partition_fault(ApiKey api, std::string_view group,
                                                 std::string_view topic,
                                                 std::int32_t partition) const {
  for (const Fault& fault : faults_) {
    if (fault.coordinator != CoordinatorFault::kNone || fault.api != api ||
        fault.action != FaultAction::kError || !group_matches(fault, group)) {
      continue;
    }
    if (fault.topic && *fault.topic != topic) continue;
    if (fault.partition && *fault.partition != partition) continue;
    return &fault;
  }
  return nullptr;
}

void FaultInjector::use(std::size_t index, ApiKey api) {
  ++injected_[api];
  Fault& fault = faults_[index];
  if (fault.remaining == Fault::kUntilDeleted) return;
  if (--fault.remaining <= 0) faults_.erase(faults_.begin() + static_cast<std::ptrdiff_t>(index));
}

void FaultInjector::use_id(std::uint64_t id, ApiKey api) {
  for (std::size_t i = 0; i < faults_.size(); ++i) {
    if (faults_[i].id == id) {
      use(i, api);
      return;
    }
  }
}

std::uint64_t FaultInjector::injected(ApiKey api) const {
  const auto found = injected_.find(api);
  return found == injected_.end() ? 0 : found->second;
}

}  // namespace kgroups::broker
