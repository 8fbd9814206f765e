// SPDX-License-Identifier: Apache-2.0
//
// GroupError: the outcomes of the group coordinator's calls, numbered exactly as
// Kafka's error codes (Errors.java) so the broker's handlers can cast them to
// protocol::ErrorCode one to one. Only the codes the coordinator produces exist here.
#pragma once

#include <cstdint>
#include <string_view>

namespace kgroups::broker {

enum class GroupError : std::int16_t {
  // Success.
  kNone = 0,
  // The coordinator is shutting down or the group is being deleted; find it again.
  kCoordinatorNotAvailable = 15,
  // This broker no longer coordinates the group (sent to parked calls at shutdown).
  kNotCoordinator = 16,
  // The member's generation is not the group's current one: it missed a rebalance.
  kIllegalGeneration = 22,
  // The member's protocol type differs from the group's, or none of its assignors
  // is supported by every other member.
  kInconsistentGroupProtocol = 23,
  // The group id is empty where a group is required.
  kInvalidGroupId = 24,
  // The member id is not (or no longer) a member of the group; rejoin with an empty id.
  kUnknownMemberId = 25,
  // The session timeout is outside the coordinator's configured bounds.
  kInvalidSessionTimeout = 26,
  // The group is rebalancing; rejoin.
  kRebalanceInProgress = 27,
  // JoinGroup v4+: the member must rejoin with the member id given in the response.
  kMemberIdRequired = 79,
};

// Returns Kafka's name of the error ("ILLEGAL_GENERATION"), for logs and test output.
constexpr std::string_view group_error_name(GroupError error) {
  switch (error) {
    case GroupError::kNone:
      return "NONE";
    case GroupError::kCoordinatorNotAvailable:
      return "COORDINATOR_NOT_AVAILABLE";
    case GroupError::kNotCoordinator:
      return "NOT_COORDINATOR";
    case GroupError::kIllegalGeneration:
      return "ILLEGAL_GENERATION";
    case GroupError::kInconsistentGroupProtocol:
      return "INCONSISTENT_GROUP_PROTOCOL";
    case GroupError::kInvalidGroupId:
      return "INVALID_GROUP_ID";
    case GroupError::kUnknownMemberId:
      return "UNKNOWN_MEMBER_ID";
    case GroupError::kInvalidSessionTimeout:
      return "INVALID_SESSION_TIMEOUT";
    case GroupError::kRebalanceInProgress:
      return "REBALANCE_IN_PROGRESS";
    case GroupError::kMemberIdRequired:
      return "MEMBER_ID_REQUIRED";
  }
  return "UNKNOWN_ERROR";
}

}  // namespace kgroups::broker
