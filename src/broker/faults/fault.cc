// SPDX-License-Identifier: Apache-2.0
#include "broker/faults/fault.h"

namespace kgroups::broker {
namespace {

using protocol::ApiKey;

struct ErrorFaultApi {
  ApiKey key;
  ErrorFaultFilters filters;
};

// The APIs whose handlers ask the FaultInjector for errors, by key.
constexpr ErrorFaultApi kErrorFaultApis[] = {
    {ApiKey::kProduce, {.topic_partition = true}},
    {ApiKey::kFetch, {.topic_partition = true}},
    {ApiKey::kListOffsets, {.topic_partition = true}},
    {ApiKey::kOffsetCommit, {.topic_partition = true, .group = true}},
    {ApiKey::kOffsetFetch, {.group = true}},
    {ApiKey::kFindCoordinator, {.group = true}},
    {ApiKey::kJoinGroup, {.group = true}},
    {ApiKey::kHeartbeat, {.group = true}},
    {ApiKey::kLeaveGroup, {.group = true}},
    {ApiKey::kSyncGroup, {.group = true}},
    {ApiKey::kDescribeGroups, {.group = true}},
    {ApiKey::kInitProducerId, {}},
    {ApiKey::kConsumerGroupHeartbeat, {.group = true}},
};

}  // namespace

std::optional<ErrorFaultFilters> error_fault_filters(ApiKey key) {
  for (const ErrorFaultApi& api : kErrorFaultApis) {
    if (api.key == key) return api.filters;
  }
  return std::nullopt;
}

std::string error_fault_api_names() {
  std::string names;
  for (const ErrorFaultApi& api : kErrorFaultApis) {
    if (!names.empty()) names += ", ";
    names += protocol::api_name(api.key);
  }
  return names;
}

using protocol::ErrorCode;

bool is_coordinator_api(ApiKey key) {
  switch (key) {
    case ApiKey::kJoinGroup:
    case ApiKey::kSyncGroup:
    case ApiKey::kHeartbeat:
    case ApiKey::kLeaveGroup:
    case ApiKey::kOffsetCommit:
    case ApiKey::kOffsetFetch:
    case ApiKey::kDescribeGroups:
    case ApiKey::kConsumerGroupHeartbeat:
      return true;
    default:
      return false;
  }
}

bool Fault::applies_to(ApiKey key) const {
  switch (coordinator) {
    case CoordinatorFault::kNone:
      return key == api;
    case CoordinatorFault::kUnavailable:
      return key == ApiKey::kFindCoordinator || is_coordinator_api(key);
    case CoordinatorFault::kMoved:
      return is_coordinator_api(key);
  }
  return false;
}

ErrorCode Fault::answered_error() const {
  switch (coordinator) {
    case CoordinatorFault::kNone:
      return error;
    case CoordinatorFault::kUnavailable:
      return ErrorCode::kCoordinatorNotAvailable;
    case CoordinatorFault::kMoved:
      return ErrorCode::kNotCoordinator;
  }
  return error;
}

}  // namespace kgroups::broker
