// SPDX-License-Identifier: Apache-2.0
//
// ErrorCode: Kafka's protocol error codes with Kafka's numbers (Errors.java), written into
// responses as int16. error_name() gives Kafka's upper-case name for logs and messages.
// Thread-safe: constants only.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace kgroups::protocol {

enum class ErrorCode : std::int16_t {
  // The server hit an unexpected error while handling the request.
  kUnknownServerError = -1,
  // Success.
  kNone = 0,
  // The requested offset is outside the range the partition holds.
  kOffsetOutOfRange = 1,
  // A record batch failed its CRC check or is otherwise malformed.
  kCorruptMessage = 2,
  // The topic or partition does not exist on this broker.
  kUnknownTopicOrPartition = 3,
  // The requested fetch size is invalid.
  kInvalidFetchSize = 4,
  // The partition has no leader right now (for example while the topic is being created).
  kLeaderNotAvailable = 5,
  // This broker is not the leader of the partition.
  kNotLeaderForPartition = 6,
  // The request did not complete within its timeout.
  kRequestTimedOut = 7,
  // The broker is not available.
  kBrokerNotAvailable = 8,
  // The replica is not available for the partition.
  kReplicaNotAvailable = 9,
  // A record batch is larger than the broker accepts.
  kMessageTooLarge = 10,
  // The controller epoch is older than the broker's.
  kStaleControllerEpoch = 11,
  // The metadata string of an offset commit is too large.
  kOffsetMetadataTooLarge = 12,
  // The server disconnected before a response was received.
  kNetworkException = 13,
  // The coordinator is still loading group state; retry.
  kCoordinatorLoadInProgress = 14,
  // The group coordinator is not available.
  kCoordinatorNotAvailable = 15,
  // This broker is not the coordinator of the group.
  kNotCoordinator = 16,
  // The topic name is not valid.
  kInvalidTopicException = 17,
  // A produce request's records exceed the maximum size.
  kRecordListTooLarge = 18,
  // Fewer in-sync replicas than required.
  kNotEnoughReplicas = 19,
  // Written, but to fewer in-sync replicas than required.
  kNotEnoughReplicasAfterAppend = 20,
  // The acks value is not -1, 0 or 1.
  kInvalidRequiredAcks = 21,
  // The generation id is not the group's current generation.
  kIllegalGeneration = 22,
  // The member's protocol type or assignors have nothing in common with the group's.
  kInconsistentGroupProtocol = 23,
  // The group id is empty or otherwise invalid.
  kInvalidGroupId = 24,
  // The member id is not a member of the group's current generation.
  kUnknownMemberId = 25,
  // The session timeout is outside the broker's allowed range.
  kInvalidSessionTimeout = 26,
  // The group is rebalancing; the member must rejoin.
  kRebalanceInProgress = 27,
  // The committed offset metadata is too large.
  kInvalidCommitOffsetSize = 28,
  // Not authorized to access the topic.
  kTopicAuthorizationFailed = 29,
  // Not authorized to access the group.
  kGroupAuthorizationFailed = 30,
  // Not authorized for the cluster operation.
  kClusterAuthorizationFailed = 31,
  // A record timestamp is outside the accepted range.
  kInvalidTimestamp = 32,
  // The broker does not support the SASL mechanism.
  kUnsupportedSaslMechanism = 33,
  // The request is not valid in the current SASL state.
  kIllegalSaslState = 34,
  // The broker does not support this API version.
  kUnsupportedVersion = 35,
  // A topic with this name already exists.
  kTopicAlreadyExists = 36,
  // The number of partitions is invalid.
  kInvalidPartitions = 37,
  // The replication factor is invalid.
  kInvalidReplicationFactor = 38,
  // The replica assignment is invalid.
  kInvalidReplicaAssignment = 39,
  // A configuration value is invalid.
  kInvalidConfig = 40,
  // This broker is not the controller.
  kNotController = 41,
  // The request is malformed (for example truncated) or otherwise invalid.
  kInvalidRequest = 42,
  // The message format (magic) is not supported for this request.
  kUnsupportedForMessageFormat = 43,
  // The request violates a configured policy.
  kPolicyViolation = 44,
  // An idempotent producer's sequence number is out of order.
  kOutOfOrderSequenceNumber = 45,
  // An idempotent producer's batch was already written.
  kDuplicateSequenceNumber = 46,
  // The producer epoch is stale (the producer was fenced).
  kInvalidProducerEpoch = 47,
  // The transactional state does not allow this operation.
  kInvalidTxnState = 48,
  // The producer id is not mapped to the transactional id.
  kInvalidProducerIdMapping = 49,
  // The transaction timeout is larger than the broker allows.
  kInvalidTransactionTimeout = 50,
  // Another transaction operation is in progress for this producer.
  kConcurrentTransactions = 51,
  // The transactional id is not authorized, or the producer is not allowed to do this.
  kTransactionalIdAuthorizationFailed = 53,
  // Not attempted because another part of the request failed.
  kOperationNotAttempted = 55,
  // Security features are disabled on this broker.
  kSecurityDisabled = 54,
  // The broker's storage failed.
  kKafkaStorageError = 56,
  // SASL authentication failed.
  kSaslAuthenticationFailed = 58,
  // The broker has no state for this producer id.
  kUnknownProducerId = 59,
  // The group still has members.
  kNonEmptyGroup = 68,
  // The group does not exist.
  kGroupIdNotFound = 69,
  // The fetch session named in the request does not exist (KIP-227).
  kFetchSessionIdNotFound = 70,
  // The fetch session epoch is not the next one (KIP-227).
  kInvalidFetchSessionEpoch = 71,
  // The leader epoch in the request is older than the broker's.
  kFencedLeaderEpoch = 74,
  // The leader epoch in the request is newer than the broker's.
  kUnknownLeaderEpoch = 75,
  // The compression codec is not supported for this request version.
  kUnsupportedCompressionType = 76,
  // JoinGroup v4+: rejoin with the member id given in the response.
  kMemberIdRequired = 79,
  // The group already has the maximum number of members.
  kGroupMaxSizeReached = 81,
  // ElectLeaders: the preferred replica is not a live in-sync replica.
  kPreferredLeaderNotAvailable = 80,
  // Another member with the same group.instance.id fenced this one.
  kFencedInstanceId = 82,
  // ElectLeaders (unclean): no live replica can lead the partition.
  kEligibleLeadersNotAvailable = 83,
  // ElectLeaders: the partition already has the leader asked for.
  kElectionNotNeeded = 84,
  // AlterPartitionReassignments: cancelling a reassignment that is not in progress.
  kNoReassignmentInProgress = 85,
  // OffsetDelete: a member of the group is subscribed to the partition's topic.
  kGroupSubscribedToTopic = 86,
  // A record failed the broker's validation.
  kInvalidRecord = 87,
  // OffsetFetch v7+ with require_stable: a transactional offset commit for the partition is
  // pending.
  kUnstableOffsetCommit = 88,
  // A newer producer with the same transactional id fenced this one (KIP-588).
  kProducerFenced = 90,
  // The resource (e.g. a user's SCRAM credential) does not exist.
  kResourceNotFound = 91,
  // The request names the same resource more than once.
  kDuplicateResource = 92,
  // The credential is not acceptable (e.g. too few SCRAM iterations).
  kUnacceptableCredential = 93,
  // No topic has this topic id (KIP-516).
  kUnknownTopicId = 100,
  // Fetch v7+: a fetch session created with topic ids (v13+) was used by a request without
  // them, or the other way round.
  kFetchSessionTopicIdError = 106,
  // Consumer-group protocol (KIP-848): the member epoch is not the member's current one;
  // the member must rejoin with epoch 0.
  kFencedMemberEpoch = 110,
  // Consumer-group protocol: the instance id is still held by a member that has not left.
  kUnreleasedInstanceId = 111,
  // Consumer-group protocol: the broker has no server-side assignor of that name.
  kUnsupportedAssignor = 112,
  // Consumer-group protocol: an offset commit or fetch carried an older member epoch.
  kStaleMemberEpoch = 113,
  // DescribeCluster v1: endpoint_type asked for controllers from a broker's listener.
  kMismatchedEndpointType = 114,
  // DescribeCluster v1: an endpoint_type that is neither brokers (1) nor controllers (2).
  kUnsupportedEndpointType = 115,
  // Share groups (KIP-932): an acknowledgement named a record this member does not hold
  // (not acquired by it, or its acquisition lock ran out), so it was not applied.
  kInvalidRecordState = 121,
  // Share groups: the broker has no share session for this member (ShareFetch or
  // ShareAcknowledge with a non-zero share_session_epoch); the member opens a new one.
  kShareSessionNotFound = 122,
  // Share groups: the share_session_epoch is not the next one of the member's session.
  kInvalidShareSessionEpoch = 123,
  // Share groups: the share coordinator refused a state write whose state epoch is not the
  // share-partition's current one.
  kFencedStateEpoch = 124,
  // Share groups: the broker holds as many share sessions as it allows; ShareFetch cannot
  // open another.
  kShareSessionLimitReached = 133,
};

// Kafka's name of `code` ("UNKNOWN_MEMBER_ID"), or "UNKNOWN_ERROR_CODE" for a number this
// enum does not list.
std::string_view error_name(ErrorCode code);

// The code Kafka names `name` ("NOT_LEADER_OR_FOLLOWER", exact case), or nullopt for a name
// this enum does not list.
std::optional<ErrorCode> error_code_from_name(std::string_view name);

// Whether this enum lists `code` (error_name() knows it).
bool is_known_error_code(std::int16_t code);

}  // namespace kgroups::protocol
