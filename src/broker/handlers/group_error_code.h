// SPDX-License-Identifier: Apache-2.0
//
// The group handlers' one mapping from the coordinator's GroupError to the wire's
// protocol::ErrorCode. Both use Kafka's numbers, so it is a cast, checked here once.
// Thread-safe: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "broker/coordinator/group_error.h"
#include "protocol/error_code.h"

namespace kgroups::broker::handlers {

constexpr protocol::ErrorCode to_error_code(GroupError error) {
  return static_cast<protocol::ErrorCode>(static_cast<std::int16_t>(error));
}

// An injected error (POST /v1/faults) as the coordinator's results carry errors, so that the
// handler answers it through its own error path. Any Kafka code passes through unchanged.
constexpr GroupError injected_group_error(protocol::ErrorCode error) {
  return static_cast<GroupError>(static_cast<std::int16_t>(error));
}

static_assert(to_error_code(GroupError::kNone) == protocol::ErrorCode::kNone);
static_assert(to_error_code(GroupError::kCoordinatorNotAvailable) ==
              protocol::ErrorCode::kCoordinatorNotAvailable);
static_assert(to_error_code(GroupError::kNotCoordinator) == protocol::ErrorCode::kNotCoordinator);
static_assert(to_error_code(GroupError::kIllegalGeneration) ==
              protocol::ErrorCode::kIllegalGeneration);
static_assert(to_error_code(GroupError::kInconsistentGroupProtocol) ==
              protocol::ErrorCode::kInconsistentGroupProtocol);
static_assert(to_error_code(GroupError::kInvalidGroupId) == protocol::ErrorCode::kInvalidGroupId);
static_assert(to_error_code(GroupError::kUnsupportedVersion) ==
              protocol::ErrorCode::kUnsupportedVersion);
static_assert(to_error_code(GroupError::kUnknownMemberId) == protocol::ErrorCode::kUnknownMemberId);
static_assert(to_error_code(GroupError::kInvalidSessionTimeout) ==
              protocol::ErrorCode::kInvalidSessionTimeout);
static_assert(to_error_code(GroupError::kRebalanceInProgress) ==
              protocol::ErrorCode::kRebalanceInProgress);
static_assert(to_error_code(GroupError::kMemberIdRequired) ==
              protocol::ErrorCode::kMemberIdRequired);
static_assert(to_error_code(GroupError::kOffsetMetadataTooLarge) ==
              protocol::ErrorCode::kOffsetMetadataTooLarge);
static_assert(to_error_code(GroupError::kCoordinatorLoadInProgress) ==
              protocol::ErrorCode::kCoordinatorLoadInProgress);
static_assert(to_error_code(GroupError::kInvalidRequest) == protocol::ErrorCode::kInvalidRequest);
static_assert(to_error_code(GroupError::kPolicyViolation) == protocol::ErrorCode::kPolicyViolation);
static_assert(to_error_code(GroupError::kGroupMaxSizeReached) ==
              protocol::ErrorCode::kGroupMaxSizeReached);
static_assert(to_error_code(GroupError::kGroupIdNotFound) == protocol::ErrorCode::kGroupIdNotFound);
static_assert(to_error_code(GroupError::kFencedInstanceId) ==
              protocol::ErrorCode::kFencedInstanceId);
static_assert(to_error_code(GroupError::kFencedMemberEpoch) ==
              protocol::ErrorCode::kFencedMemberEpoch);
static_assert(to_error_code(GroupError::kUnreleasedInstanceId) ==
              protocol::ErrorCode::kUnreleasedInstanceId);
static_assert(to_error_code(GroupError::kUnsupportedAssignor) ==
              protocol::ErrorCode::kUnsupportedAssignor);
static_assert(to_error_code(GroupError::kStaleMemberEpoch) ==
              protocol::ErrorCode::kStaleMemberEpoch);

// Kafka's client_host form, "/127.0.0.1", from the connection's "host:port".
inline std::string client_host(std::string_view peer) {
  const std::size_t colon = peer.rfind(':');
  std::string host = "/";
  host.append(colon == std::string_view::npos ? peer : peer.substr(0, colon));
  return host;
}

}  // namespace kgroups::broker::handlers
