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
  // OffsetCommit: this partition's metadata is longer than offset_metadata_max_bytes;
  // it was not stored (the request's other partitions were).
  kOffsetMetadataTooLarge = 12,
  // The coordinator keeps as many bytes as it may (max_stored_bytes); nothing was
  // changed. Retriable: retry after a backoff.
  kCoordinatorLoadInProgress = 14,
  // The coordinator is shutting down or the group is being deleted; find it again.
  // Also SyncGroup's answer when the leader's assignment would exceed max_stored_bytes
  // (clients treat COORDINATOR_LOAD_IN_PROGRESS from SyncGroup as fatal).
  kCoordinatorNotAvailable = 15,
  // This broker no longer coordinates the group (sent to parked calls at shutdown).
  kNotCoordinator = 16,
  // The member's generation is not the group's current one: it missed a rebalance.
  kIllegalGeneration = 22,
  // The member's protocol type differs from the group's, or none of its assignors
  // is supported by every other member.
  kInconsistentGroupProtocol = 23,
  // The group id is empty where a group is required, or longer than max_id_length.
  kInvalidGroupId = 24,
  // The member id is not (or no longer) a member of the group, or is longer than
  // max_id_length; rejoin with an empty id.
  kUnknownMemberId = 25,
  // The session timeout is outside the coordinator's configured bounds.
  kInvalidSessionTimeout = 26,
  // The group is rebalancing; rejoin.
  kRebalanceInProgress = 27,
  // The request's version cannot serve this group (an OffsetCommit below v9 for a group of
  // the consumer-group protocol, whose member epochs only v9+ carries).
  kUnsupportedVersion = 35,
  // The request carries a field the coordinator refuses to keep (a JoinGroup client
  // id or protocol type longer than max_id_length).
  kInvalidRequest = 42,
  // The call would create a group while the coordinator holds max_groups already.
  kPolicyViolation = 44,
  // DeleteGroups / OffsetDelete: the group has members.
  kNonEmptyGroup = 68,
  // ConsumerGroupDescribe, DeleteGroups, OffsetDelete: the coordinator holds no group of
  // that id.
  kGroupIdNotFound = 69,
  // JoinGroup v4+: the member must rejoin with the member id given in the response.
  kMemberIdRequired = 79,
  // The group has max_group_size members already, or its members' metadata and
  // assignments would exceed max_group_metadata_bytes.
  kGroupMaxSizeReached = 81,
  // ConsumerGroupHeartbeat: another member took over this member's instance id.
  kFencedInstanceId = 82,
  // ConsumerGroupHeartbeat: the member epoch is ahead of or behind the coordinator's
  // (beyond the previous-epoch allowance); give up every partition and rejoin with 0.
  kFencedMemberEpoch = 110,
  // ConsumerGroupHeartbeat: a live member (one that has not left with epoch -2) holds
  // the instance id.
  kUnreleasedInstanceId = 111,
  // OffsetDelete: a member of the group is subscribed to the partition's topic.
  kGroupSubscribedToTopic = 86,
  // ConsumerGroupHeartbeat: server_assignor names no assignor the coordinator has.
  kUnsupportedAssignor = 112,
  // OffsetCommit/OffsetFetch of a consumer group: the member epoch is not the member's
  // current epoch.
  kStaleMemberEpoch = 113,
};

// Returns Kafka's name of the error ("ILLEGAL_GENERATION"), for logs and test output.
constexpr std::string_view group_error_name(GroupError error) {
  switch (error) {
    case GroupError::kNone:
      return "NONE";
    case GroupError::kOffsetMetadataTooLarge:
      return "OFFSET_METADATA_TOO_LARGE";
    case GroupError::kCoordinatorLoadInProgress:
      return "COORDINATOR_LOAD_IN_PROGRESS";
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
    case GroupError::kUnsupportedVersion:
      return "UNSUPPORTED_VERSION";
    case GroupError::kInvalidRequest:
      return "INVALID_REQUEST";
    case GroupError::kPolicyViolation:
      return "POLICY_VIOLATION";
    case GroupError::kMemberIdRequired:
      return "MEMBER_ID_REQUIRED";
    case GroupError::kGroupMaxSizeReached:
      return "GROUP_MAX_SIZE_REACHED";
    case GroupError::kNonEmptyGroup:
      return "NON_EMPTY_GROUP";
    case GroupError::kGroupIdNotFound:
      return "GROUP_ID_NOT_FOUND";
    case GroupError::kGroupSubscribedToTopic:
      return "GROUP_SUBSCRIBED_TO_TOPIC";
    case GroupError::kFencedInstanceId:
      return "FENCED_INSTANCE_ID";
    case GroupError::kFencedMemberEpoch:
      return "FENCED_MEMBER_EPOCH";
    case GroupError::kUnreleasedInstanceId:
      return "UNRELEASED_INSTANCE_ID";
    case GroupError::kUnsupportedAssignor:
      return "UNSUPPORTED_ASSIGNOR";
    case GroupError::kStaleMemberEpoch:
      return "STALE_MEMBER_EPOCH";
  }
  return "UNKNOWN_ERROR";
}

}  // namespace kgroups::broker
